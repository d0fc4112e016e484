#!/usr/bin/python3
"""An ahead-of-time artifact against the JIT network it was compiled from: the same bits,
the same speed, and how much sooner it is ready.

    PYTHONPATH=build/python /usr/bin/python3 bench/compare_aot.py [--models M ...]
        [--plans DIR] [--threads 2] [--rounds 5] [--min-seconds 1] [--ort] [--out out/aot]

MODEL is a zoo name, `zoo` (every zoo network, the default) or an .onnx file. With
--plans DIR, MODEL's plan is DIR/MODEL.plan.json when it exists (compare_peers.py writes
them), else the default schedule. Per model:
    layoutopt compile MODEL [--plan P] --threads T -o OUT/MODEL.aot   (once; reused if present)
    layoutopt run MODEL [--plan P] --threads T --input x.npy -o OUT/MODEL.run.npy
then, with the Python module:
  - start-up: Session.compile(MODEL, P) (the JIT path: import, plan, compile) and
    Session.load(OUT/MODEL.aot) each timed in a fresh process, alternating, --rounds times;
  - bits: the artifact's outputs for x must equal the JIT session's, and its first output
    `layoutopt run`'s (which writes the first), byte for byte;
  - latency: both sessions in one process, in alternating rounds; each round times each
    session the same way (3 warm-up runs, then runs until --min-seconds and at least 10),
    and the ratio artifact / JIT is paired per round: median and range over rounds.
With --ort, an .onnx MODEL also gets ONNX Runtime in every round (bench/peers/ort_bench.js in
a fresh Node process, same threads, warm-up and minimum time): its session creation against
the artifact's load, its run against the artifact's.
Writes OUT/aot.md (the table, also printed), aot.csv and aot.svg (the latency ratios).
"""

import argparse
import csv
import html
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
LAYOUTOPT = os.path.join(ROOT, "build", "apps", "layoutopt")
MODULE_PATH = os.path.join(ROOT, "build", "python")
ORT_BENCH = os.path.join(ROOT, "bench", "peers", "ort_bench.js")
WARMUP_RUNS, MIN_RUNS = 3, 10

# Times one start-up in a fresh process (the module's import is not counted).
STARTUP_SNIPPET = """
import sys, time
import layoutopt
kind, model, plan, threads = sys.argv[1], sys.argv[2], sys.argv[3] or None, int(sys.argv[4])
start = time.perf_counter()
if kind == "jit":
    layoutopt.Session.compile(model, plan=plan, threads=threads)
else:
    layoutopt.Session.load(model, threads=threads)
print(time.perf_counter() - start)
"""


def fail(message):
    print(f"compare_aot: {message}", file=sys.stderr)
    sys.exit(1)


class ModelFailed(Exception):
    """One model's comparison could not be made (a command or a session failed)."""


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise ModelFailed(f"{' '.join(command)} failed:\n{result.stderr.strip()}")
    return result.stdout


def zoo_names():
    """The zoo's network names, from the first column of `layoutopt zoo`."""
    lines = run([LAYOUTOPT, "zoo"]).splitlines()
    return [line.split()[0] for line in lines[1:] if line.strip()]


def expand_models(models):
    return [name for model in models for name in (zoo_names() if model == "zoo" else [model])]


def ort_round(model, threads, min_seconds):
    """ONNX Runtime in a fresh process: (session creation s, median run ms)."""
    out = json.loads(run(["node", ORT_BENCH, model, "--threads", str(threads), "--warmup", str(WARMUP_RUNS),
                          "--min-runs", str(MIN_RUNS), "--min-seconds", str(min_seconds), "--json"]))
    return out["create_ms"] / 1e3, out["median_ms"]


def model_name(model):
    """A zoo name as it is (squeezenet-1.1 keeps its '.1'); an .onnx file's base name."""
    base = os.path.basename(model)
    return base[:-len(".onnx")] if base.endswith(".onnx") else base


def plan_of(args, model):
    if not args.plans:
        return None
    path = os.path.join(args.plans, model_name(model) + ".plan.json")
    return path if os.path.exists(path) else None


def startup_seconds(kind, target, plan, threads):
    env = dict(os.environ, PYTHONPATH=MODULE_PATH)
    out = subprocess.run([sys.executable, "-c", STARTUP_SNIPPET, kind, target, plan or "", str(threads)],
                         capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise ModelFailed(f"{kind} start-up of {target} failed:\n{out.stderr.strip()}")
    return float(out.stdout.strip().splitlines()[-1])


def median_run_ms(session, x, min_seconds):
    """The timing policy both sessions get: warm-up, then at least MIN_RUNS and min_seconds."""
    for _ in range(WARMUP_RUNS):
        session.run(x)
    times = []
    started = time.perf_counter()
    while len(times) < MIN_RUNS or time.perf_counter() - started < min_seconds:
        begin = time.perf_counter()
        session.run(x)
        times.append((time.perf_counter() - begin) * 1e3)
    return statistics.median(times)


def compare_model(args, model):
    import numpy as np
    import layoutopt
    name = model_name(model)
    plan = plan_of(args, model)
    artifact = os.path.join(args.out, name + ".aot")
    plan_flags = ["--plan", plan] if plan else []
    threads = ["--threads", str(args.threads)]
    if not os.path.exists(os.path.join(artifact, "program.bin")):
        run([LAYOUTOPT, "compile", model, "-o", artifact, "--quiet"] + plan_flags + threads)
    jit = layoutopt.Session.compile(model, plan=plan, threads=args.threads)
    aot = layoutopt.Session.load(artifact, threads=args.threads)
    x = np.random.default_rng(1).uniform(-1, 1, jit.inputs[0].shape).astype(np.float32)
    x_path, run_path = os.path.join(args.out, name + ".x.npy"), os.path.join(args.out, name + ".run.npy")
    np.save(x_path, x)
    run([LAYOUTOPT, "run", model, "--input", x_path, "-o", run_path, "--force"] + plan_flags + threads)
    aot_outs, jit_outs = aot.run(x), jit.run(x)
    # `layoutopt run -o` writes the first output; every output must match the JIT's.
    identical = (len(aot_outs) == len(jit_outs) and aot_outs[0].tobytes() == np.load(run_path).tobytes()
                 and all(a.tobytes() == j.tobytes() for a, j in zip(aot_outs, jit_outs)))

    with_ort = args.ort and model.endswith(".onnx")
    startup = {"jit": [], "aot": [], "ort": []}
    ratios, ort_ratios, jit_ms, aot_ms, ort_ms = [], [], [], [], []
    for round_index in range(args.rounds):
        forward = round_index % 2 == 0
        for kind, target in (("jit", model), ("aot", artifact)) if forward else (("aot", artifact), ("jit", model)):
            startup[kind].append(startup_seconds(kind, target, plan, args.threads))
        if with_ort and not forward:
            record_ort_round(model, args, startup, ort_ms)
        pair = [(jit, jit_ms), (aot, aot_ms)] if forward else [(aot, aot_ms), (jit, jit_ms)]
        for session, into in pair:
            into.append(median_run_ms(session, x, args.min_seconds))
        if with_ort and forward:
            record_ort_round(model, args, startup, ort_ms)
        ratios.append(aot_ms[-1] / jit_ms[-1])
        peer = ""
        if with_ort:
            ort_ratios.append(aot_ms[-1] / ort_ms[-1])
            peer = f", ONNX Runtime {ort_ms[-1]:.3f} ms (created in {startup['ort'][-1]:.3f} s)"
        print(f"  {name} round {round_index + 1}: JIT {jit_ms[-1]:.3f} ms, artifact {aot_ms[-1]:.3f} ms{peer}",
              flush=True)
    row = {
        "model": name, "schedule": "plan" if plan else "default", "identical": identical,
        "jit_ms": statistics.median(jit_ms), "aot_ms": statistics.median(aot_ms),
        "ratio": statistics.median(ratios), "ratio_low": min(ratios), "ratio_high": max(ratios),
        "jit_start_s": statistics.median(startup["jit"]), "aot_load_s": statistics.median(startup["aot"]),
        "ort_ms": None, "ort_create_s": None, "ort_ratio": None, "ort_ratio_low": None, "ort_ratio_high": None,
    }
    if with_ort:
        row.update(ort_ms=statistics.median(ort_ms), ort_create_s=statistics.median(startup["ort"]),
                   ort_ratio=statistics.median(ort_ratios), ort_ratio_low=min(ort_ratios),
                   ort_ratio_high=max(ort_ratios))
    return row


def record_ort_round(model, args, startup, ort_ms):
    create_s, run_ms = ort_round(model, args.threads, args.min_seconds)
    startup["ort"].append(create_s)
    ort_ms.append(run_ms)


def write_reports(args, rows):
    header = ("| model | schedule | bit-identical | JIT ms | artifact ms | artifact / JIT | JIT start-up s "
              "| artifact load s | load / start-up |\n|---|---|---|---:|---:|---:|---:|---:|---:|\n")
    lines = [f"| {r['model']} | {r['schedule']} | {'yes' if r['identical'] else 'NO'} | {r['jit_ms']:.3f} "
             f"| {r['aot_ms']:.3f} | {r['ratio']:.3f} ({r['ratio_low']:.3f}-{r['ratio_high']:.3f}) "
             f"| {r['jit_start_s']:.2f} | {r['aot_load_s']:.3f} | 1/{r['jit_start_s'] / r['aot_load_s']:.0f} |"
             for r in rows]
    table = header + "\n".join(lines) + "\n"
    peer_rows = [r for r in rows if r["ort_ms"] is not None]
    if peer_rows:
        table += ("\n| model | ONNX Runtime session creation s | artifact load s | ONNX Runtime ms | artifact ms "
                  "| artifact / ONNX Runtime |\n|---|---:|---:|---:|---:|---:|\n")
        table += "".join(f"| {r['model']} | {r['ort_create_s']:.3f} | {r['aot_load_s']:.3f} | {r['ort_ms']:.3f} "
                         f"| {r['aot_ms']:.3f} | {r['ort_ratio']:.3f} ({r['ort_ratio_low']:.3f}-"
                         f"{r['ort_ratio_high']:.3f}) |\n" for r in peer_rows)
    print(table)
    with open(os.path.join(args.out, "aot.md"), "w") as f:
        f.write(f"{args.threads} threads, {args.rounds} alternating rounds; medians, ratio range over rounds.\n\n" + table)
    with open(os.path.join(args.out, "aot.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    write_svg(os.path.join(args.out, "aot.svg"), rows, args.threads)


def write_svg(path, rows, threads):
    """One bar per model: artifact latency over JIT latency, with the range over rounds."""
    bar, left, width, top = 22, 130, 420, 40
    limit = max(1.2, max(r["ratio_high"] for r in rows) * 1.05)
    height = top + len(rows) * bar + 45
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 140}" height="{height}" '
           'font-family="sans-serif" font-size="12">',
           f'<text x="10" y="20" font-size="14" font-weight="bold">Artifact latency / JIT latency, {threads} threads '
           '(1 = same; whiskers: range over rounds)</text>']
    for tick in range(int(limit / 0.2) + 1):
        x = left + width * tick * 0.2 / limit
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{height - 40}" stroke="#ddd"/>'
                   f'<text x="{x:.1f}" y="{height - 25}" text-anchor="middle">{tick * 0.2:.1f}</text>')
    one = left + width / limit
    out.append(f'<line x1="{one:.1f}" y1="{top}" x2="{one:.1f}" y2="{height - 40}" stroke="#444"/>')
    for i, r in enumerate(rows):
        y = top + i * bar
        scale = width / limit
        out.append(f'<text x="{left - 8}" y="{y + bar - 7}" text-anchor="end">{html.escape(r["model"])}</text>'
                   f'<rect x="{left}" y="{y + 3}" width="{r["ratio"] * scale:.1f}" height="{bar - 6}" fill="#2ca02c"/>'
                   f'<line x1="{left + r["ratio_low"] * scale:.1f}" y1="{y + bar / 2}" '
                   f'x2="{left + r["ratio_high"] * scale:.1f}" y2="{y + bar / 2}" stroke="#000"/>'
                   f'<text x="{left + r["ratio_high"] * scale + 6:.1f}" y="{y + bar - 7}">{r["ratio"]:.3f}'
                   f'{"" if r["identical"] else " (bits differ)"}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", nargs="+", default=["zoo"])
    parser.add_argument("--ort", action="store_true",
                        help="also time ONNX Runtime (session creation and run) on .onnx models")
    parser.add_argument("--plans", help="folder with MODEL.plan.json files (else default schedules)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--min-seconds", type=float, default=1.0)
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "aot"))
    args = parser.parse_args()
    if args.rounds < 1 or args.threads < 1:
        fail("--rounds and --threads must be at least 1")
    if not os.path.exists(LAYOUTOPT):
        fail(f"{LAYOUTOPT} is missing: build first (bash scripts/build.sh)")
    sys.path.insert(0, MODULE_PATH)
    try:
        import layoutopt
    except ImportError as error:
        fail(f"the Python module is not built in {MODULE_PATH} ({error}); install pybind11-dev and rebuild")
    if args.ort and not os.path.isdir(os.path.join(ROOT, "bench", "peers", "node_modules", "onnxruntime-node")):
        fail("--ort needs onnxruntime-node: bash scripts/install-deps.sh --peers")
    os.makedirs(args.out, exist_ok=True)
    try:
        models = expand_models(args.models)
    except ModelFailed as failure:
        fail(str(failure))
    rows, failures = [], []
    for model in models:
        print(f"{model}:", flush=True)
        try:
            rows.append(compare_model(args, model))
        except (ModelFailed, layoutopt.Error) as failure:  # the others still run; the script fails at the end
            print(f"  {failure}", flush=True)
            failures.append(f"{model}: {failure}")
        json.dump(rows, open(os.path.join(args.out, "aot.json"), "w"), indent=1)
    if rows:
        write_reports(args, rows)
    if failures:
        fail("these models could not be compared:\n  " + "\n  ".join(failures))
    if not all(r["identical"] for r in rows):
        fail("some artifact's output differs from the JIT's: see the table")


if __name__ == "__main__":
    main()
