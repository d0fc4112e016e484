#!/usr/bin/python3
"""An ahead-of-time artifact against the JIT network it was compiled from: the same bits,
the same speed, and how much sooner it is ready.

    PYTHONPATH=build/python /usr/bin/python3 bench/compare_aot.py [--models M ...]
        [--plans DIR] [--threads 2] [--rounds 5] [--min-seconds 1] [--out out/aot]

MODEL is a zoo name or an .onnx file. With --plans DIR, MODEL's plan is DIR/MODEL.plan.json
when it exists (compare_peers.py writes them), else the default schedule. Per model:
    layoutopt compile MODEL [--plan P] --threads T -o OUT/MODEL.aot   (once; reused if present)
    layoutopt run MODEL [--plan P] --threads T --input x.npy -o OUT/MODEL.run.npy
then, with the Python module:
  - start-up: Session.compile(MODEL, P) (the JIT path: import, plan, compile) and
    Session.load(OUT/MODEL.aot) each timed in a fresh process, alternating, --rounds times;
  - bits: the artifact's output for x must equal `layoutopt run`'s and the JIT session's,
    byte for byte;
  - latency: both sessions in one process, in alternating rounds; each round times each
    session the same way (3 warm-up runs, then runs until --min-seconds and at least 10),
    and the ratio artifact / JIT is paired per round: median and range over rounds.
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
DEFAULT_MODELS = ["resnet-18", "resnet-50", "vgg-16", "mobilenet-v2", "inception-v3", "densenet-121", "squeezenet-1.1"]
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


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        fail(f"{' '.join(command)} failed:\n{result.stderr.strip()}")
    return result.stdout


def plan_of(args, model):
    if not args.plans:
        return None
    path = os.path.join(args.plans, os.path.splitext(os.path.basename(model))[0] + ".plan.json")
    return path if os.path.exists(path) else None


def startup_seconds(kind, target, plan, threads):
    env = dict(os.environ, PYTHONPATH=MODULE_PATH)
    out = subprocess.run([sys.executable, "-c", STARTUP_SNIPPET, kind, target, plan or "", str(threads)],
                         capture_output=True, text=True, env=env)
    if out.returncode != 0:
        fail(f"{kind} start-up of {target} failed:\n{out.stderr.strip()}")
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
    name = os.path.splitext(os.path.basename(model))[0]
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
    (aot_out,), (jit_out,) = aot.run(x), jit.run(x)
    identical = aot_out.tobytes() == np.load(run_path).tobytes() and aot_out.tobytes() == jit_out.tobytes()

    startup = {"jit": [], "aot": []}
    ratios, jit_ms, aot_ms = [], [], []
    for round_index in range(args.rounds):
        for kind, target in (("jit", model), ("aot", artifact)) if round_index % 2 == 0 else (("aot", artifact), ("jit", model)):
            startup[kind].append(startup_seconds(kind, target, plan, args.threads))
        pair = [(jit, jit_ms), (aot, aot_ms)] if round_index % 2 == 0 else [(aot, aot_ms), (jit, jit_ms)]
        for session, into in pair:
            into.append(median_run_ms(session, x, args.min_seconds))
        ratios.append(aot_ms[-1] / jit_ms[-1])
        print(f"  {name} round {round_index + 1}: JIT {jit_ms[-1]:.3f} ms, artifact {aot_ms[-1]:.3f} ms", flush=True)
    return {
        "model": name, "schedule": "plan" if plan else "default", "identical": identical,
        "jit_ms": statistics.median(jit_ms), "aot_ms": statistics.median(aot_ms),
        "ratio": statistics.median(ratios), "ratio_low": min(ratios), "ratio_high": max(ratios),
        "jit_start_s": statistics.median(startup["jit"]), "aot_load_s": statistics.median(startup["aot"]),
    }


def write_reports(args, rows):
    header = ("| model | schedule | bit-identical | JIT ms | artifact ms | artifact / JIT | JIT start-up s "
              "| artifact load s | load / start-up |\n|---|---|---|---:|---:|---:|---:|---:|---:|\n")
    lines = [f"| {r['model']} | {r['schedule']} | {'yes' if r['identical'] else 'NO'} | {r['jit_ms']:.3f} "
             f"| {r['aot_ms']:.3f} | {r['ratio']:.3f} ({r['ratio_low']:.3f}-{r['ratio_high']:.3f}) "
             f"| {r['jit_start_s']:.2f} | {r['aot_load_s']:.3f} | 1/{r['jit_start_s'] / r['aot_load_s']:.0f} |"
             for r in rows]
    table = header + "\n".join(lines) + "\n"
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
    parser.add_argument("--models", nargs="+", default=DEFAULT_MODELS)
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
        import layoutopt  # noqa: F401
    except ImportError as error:
        fail(f"the Python module is not built in {MODULE_PATH} ({error}); install pybind11-dev and rebuild")
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for model in args.models:
        print(f"{model}:", flush=True)
        rows.append(compare_model(args, model))
    write_reports(args, rows)
    json.dump(rows, open(os.path.join(args.out, "aot.json"), "w"), indent=1)
    if not all(r["identical"] for r in rows):
        fail("some artifact's output differs from the JIT's: see the table")


if __name__ == "__main__":
    main()
