#!/usr/bin/python3
"""Times layoutopt's graph-tuned networks side by side with ONNX Runtime and PyTorch.

All three peers run in the same invocation, on the same machine, with the same thread count
and the same seeded-random-weight networks (bench/peers/export_models.py). They run in
alternating rounds (layoutopt, ONNX Runtime, PyTorch, layoutopt, ...) so that load from
other processes hits all of them alike; each run reports the median of its own timed runs
(after warm-up, at least 10 runs and a minimum time), and the figure quoted per peer is the
median of its per-round medians. Ratios are layoutopt / peer: below 1 means layoutopt is
faster. They are paired: each is the median over rounds of that round's ratio (the peers
of a round run back to back), with the range over rounds, so slow drifts of a shared
machine's speed, which move all peers of a round together, cancel out.

    bench/compare_peers.py [--models M ...] [--threads 2] [--rounds 3] [--budget quick]
                           [--out out/peers] [--replan] [--skip-layoutopt]

Per model it first exports out/peers/models/MODEL.onnx (if missing; any other ONNX file
placed there as MODEL.onnx is timed as it is) and plans it once
(skipped if out/peers/MODEL.plan.json exists, unless --replan):
    layoutopt optimize MODEL.onnx --budget B --records out/peers/MODEL.tune.jsonl
        --transforms out/peers/MODEL.transforms.json --threads N -o out/peers/MODEL.plan.json
        --force --json-summary out/peers/MODEL.optimize.json
(a model it cannot plan is left out of the rounds and named under the table), and then times, each round:
    layoutopt bench MODEL.onnx --plan out/peers/MODEL.plan.json --threads N --json
    node bench/peers/ort_bench.js MODEL.onnx --threads N ... --json
    /usr/bin/python3 bench/peers/torch_bench.py MODEL.onnx --threads N ... --json
Writes into the output directory: peers.md (the table, also printed), peers.csv (the
table's figures), rounds.csv and rounds.jsonl (every run) and peers.svg (a bar chart).
Needs the peers installed: `bash scripts/install-deps.sh --peers`.
"""

import argparse
import csv
import datetime
import html
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PEERS_DIR = os.path.join(ROOT, "bench", "peers")
TORCH_PYTHON = "/usr/bin/python3"  # Debian's interpreter: the one with python3-torch
DEFAULT_MODELS = ["resnet-50", "inception-v3", "densenet-201", "vgg-19-bn", "mobilenet-v2"]
PEERS = ["layoutopt", "onnxruntime", "pytorch"]
LABELS = {"layoutopt": "layoutopt graph-tuned", "onnxruntime": "ONNX Runtime", "pytorch": "PyTorch"}
COLORS = {"layoutopt": "#d62728", "onnxruntime": "#1f77b4", "pytorch": "#ff7f0e"}
INSTALL_HINT = "install the peers with `bash scripts/install-deps.sh --peers`"


def fail(message):
    # Named after the script that runs (compare_plans.py shares these helpers).
    sys.exit(f"{os.path.splitext(os.path.basename(sys.argv[0]))[0]}: {message}")


def check_prerequisites(args):
    if shutil.which("node") is None:
        fail("node not found on PATH (Node.js 20 comes with the machine image)")
    if not os.path.isfile(os.path.join(PEERS_DIR, "node_modules", "onnxruntime-node", "package.json")):
        fail(f"onnxruntime-node is not installed in {PEERS_DIR}; {INSTALL_HINT}")
    probe = subprocess.run([TORCH_PYTHON, "-c", "import torch, torchvision, onnx"], capture_output=True, text=True)
    if probe.returncode != 0:
        fail(f"{TORCH_PYTHON} cannot import torch, torchvision and onnx; {INSTALL_HINT}\n{probe.stderr.strip()}")
    args.layoutopt_version = ""
    if args.skip_layoutopt:
        return
    if not (os.path.isfile(args.layoutopt) and os.access(args.layoutopt, os.X_OK)):
        fail(f"layoutopt binary {args.layoutopt} not found: build it with `bash scripts/build.sh` "
             "(or pass --layoutopt PATH, or --skip-layoutopt to time only ONNX Runtime and PyTorch)")
    version = subprocess.run([args.layoutopt, "--version"], capture_output=True, text=True)
    args.layoutopt_version = version.stdout.strip().removeprefix("layoutopt ") if version.returncode == 0 else ""
    # `layoutopt X --help` exits 0 even for an unknown X, so read the list of subcommands.
    listing = subprocess.run([args.layoutopt, "--help"], capture_output=True, text=True).stdout.split()
    missing = [command for command in ("optimize", "bench") if command not in listing]
    if missing:
        fail(f"{args.layoutopt} has no `{'` or `'.join(missing)}` subcommand yet "
             "(pass --skip-layoutopt to time only ONNX Runtime and PyTorch)")


class CommandFailed(Exception):
    pass


def run_logged(command, log_path):
    """Runs a long command, showing its output and keeping a copy in log_path; raises
    CommandFailed when it exits non-zero."""
    print("$ " + " ".join(command), flush=True)
    with open(log_path, "w") as log:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in process.stdout:
            sys.stdout.write(line)
            log.write(line)
        if process.wait() != 0:
            raise CommandFailed(f"`{' '.join(command)}` failed with exit code {process.returncode} (log: {log_path})")


def plan(args, model, onnx_path):
    """Plans one model; returns its plan's path, or None (with the reason printed) when
    `layoutopt optimize` fails on it, so that one unreadable file does not end the sweep."""
    paths = {kind: os.path.join(args.out, f"{model}.{kind}") for kind in
             ("plan.json", "tune.jsonl", "transforms.json", "optimize.json", "optimize.log")}
    if os.path.exists(paths["plan.json"]) and not args.replan:
        print(f"{model}: plan {paths['plan.json']} exists, not re-planned (--replan to redo)")
        return paths["plan.json"]
    try:
        run_logged([args.layoutopt, "optimize", onnx_path, "--budget", args.budget,
                    "--records", paths["tune.jsonl"], "--transforms", paths["transforms.json"],
                    "--threads", str(args.threads), "-o", paths["plan.json"], "--force",
                    "--json-summary", paths["optimize.json"]], paths["optimize.log"])
    except CommandFailed as failure:
        print(f"compare_peers: {model} is not timed: {failure}", file=sys.stderr)
        return None
    if not os.path.exists(paths["plan.json"]):
        fail(f"layoutopt optimize succeeded but wrote no {paths['plan.json']}")
    return paths["plan.json"]


def peer_command(args, peer, onnx_path, plan_path):
    timing = ["--threads", str(args.threads), "--warmup", str(args.warmup),
              "--min-seconds", str(args.min_seconds), "--json"]
    if peer == "layoutopt":
        return [args.layoutopt, "bench", onnx_path, "--plan", plan_path, "--threads", str(args.threads), "--json"]
    if peer == "onnxruntime":
        return ["node", os.path.join(PEERS_DIR, "ort_bench.js"), onnx_path] + timing
    return [TORCH_PYTHON, os.path.join(PEERS_DIR, "torch_bench.py"), onnx_path] + timing


def time_peer(args, peer, onnx_path, plan_path):
    """Runs one peer once; returns its JSON result."""
    result = time_command(peer_command(args, peer, onnx_path, plan_path), peer, args.threads)
    result["peer"] = peer
    return result


def time_command(command, label, threads):
    """Runs one timing command that prints a JSON object with median_ms, q1_ms, q3_ms, runs
    and threads (`layoutopt bench --json`, bench/peers' scripts); returns that object."""
    process = subprocess.run(command, capture_output=True, text=True)
    if process.returncode != 0:
        fail(f"`{' '.join(command)}` failed with exit code {process.returncode}:\n"
             + "\n".join(process.stderr.strip().splitlines()[-15:]))
    lines = [line for line in process.stdout.splitlines() if line.lstrip().startswith("{")]
    try:
        result = json.loads(lines[-1])
        for key in ("median_ms", "q1_ms", "q3_ms", "runs", "threads"):
            result[key] = float(result[key])
    except (IndexError, ValueError, KeyError, TypeError) as error:
        fail(f"`{' '.join(command)}` printed no JSON object with median_ms, q1_ms, q3_ms, runs and "
             f"threads ({error}); its output:\n{process.stdout[-2000:]}")
    if int(result["threads"]) != threads:
        fail(f"{label} ran with {int(result['threads'])} threads, not {threads}")
    if result["runs"] < 10:
        print(f"warning: {label} timed only {int(result['runs'])} runs", file=sys.stderr)
    return result


def outputs_agree(results):
    """Compares the first outputs of the peers that report them (same weights, same input).
    Returns a note, or None when fewer than two peers report outputs."""
    heads = {peer: r["output_head"] for peer, r in results.items() if r.get("output_head")}
    if len(heads) < 2:
        return None
    reference_peer, reference = next(iter(heads.items()))
    scale = max(abs(v) for v in reference) or 1.0
    worst = max(max(abs(a - b) for a, b in zip(reference, head)) / scale
                for peer, head in heads.items() if peer != reference_peer)
    verdict = "agree" if worst < 1e-3 else "DIFFER"
    return f"{verdict} (max relative difference {worst:.1e} over the first outputs of {', '.join(heads)})"


def machine_description():
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} logical CPUs"


def ms(value):
    return "–" if value is None else f"{value:.2f}"


def times(value):
    return "–" if value is None else f"{value:.3f}"


def paired_ratios(rounds, model, peer):
    """layoutopt / peer in each round where both ran, in round order."""
    by_round = {}
    for r in rounds:
        if r["model"] == model and r["peer"] in ("layoutopt", peer):
            by_round.setdefault(r["round"], {})[r["peer"]] = r["median_ms"]
    return [t["layoutopt"] / t[peer] for _, t in sorted(by_round.items()) if "layoutopt" in t and peer in t]


def paired_text(ratios):
    if not ratios:
        return "–"
    return f"{statistics.median(ratios):.3f} ({min(ratios):.2f}-{max(ratios):.2f})"


def write_reports(args, models, peers, rounds, summary, notes, unplanned=()):
    """rounds: list of run results; summary: {model: {peer: median of round medians}};
    unplanned: models layoutopt could not plan, named so that the table does not hide them."""
    versions = {r["peer"]: r.get("version") or "" for r in rounds}
    if "layoutopt" in versions and not versions["layoutopt"]:
        versions["layoutopt"] = args.layoutopt_version
    torch_modes = {}
    for r in rounds:
        if r["peer"] == "pytorch":
            torch_modes.setdefault(r["model"], set()).add(r.get("mode", "?"))
    lines = [
        f"# layoutopt vs ONNX Runtime vs PyTorch, batch 1, {args.threads} threads",
        "",
        f"{machine_description()}; {args.rounds} alternating rounds, each peer's figure is the median "
        f"of its per-round medians; {datetime.datetime.now().isoformat(timespec='seconds')}; "
        f"1-minute load average before the runs {args.load_before:.2f}"
        + (" (busy: other processes competed for the cores, so the figures are unreliable)."
           if args.load_before > 0.5 else "."),
        "",
        "| model | layoutopt graph-tuned ms | ONNX Runtime ms | PyTorch ms | layoutopt/ORT (rounds) "
        "| layoutopt/PyTorch (rounds) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    rows = []
    for model in models:
        s = summary[model]
        lo, ort, pt = s.get("layoutopt"), s.get("onnxruntime"), s.get("pytorch")
        by_ort, by_pt = paired_ratios(rounds, model, "onnxruntime"), paired_ratios(rounds, model, "pytorch")
        rows.append([model, lo, ort, pt, statistics.median(by_ort) if by_ort else None,
                     statistics.median(by_pt) if by_pt else None])
        lines.append(f"| {model} | {ms(lo)} | {ms(ort)} | {ms(pt)} | {paired_text(by_ort)} | {paired_text(by_pt)} |")
    peer_note = "Peers: " + "; ".join(f"{LABELS[p]} {versions.get(p, '')}".strip() for p in peers)
    if torch_modes:
        peer_note += "; PyTorch TorchScript mode: " + ", ".join(f"{m} {'/'.join(sorted(v))}" for m, v in torch_modes.items())
    lines += ["", "Ratios below 1 mean layoutopt is faster; each is the median of the rounds' own ratios "
              "(their range in parentheses).", peer_note + "."]
    lines += [f"Outputs of {model}: {note}." for model, note in notes.items() if note]
    untimed = [m for m in models if "pytorch" in peers and summary[m].get("pytorch") is None]
    if untimed:
        lines.append(f"PyTorch rebuilds the torchvision networks by name; it did not time {', '.join(untimed)}.")
    if "layoutopt" not in peers:
        lines.append("layoutopt was skipped (--skip-layoutopt).")
    if unplanned:
        logs = ", ".join(f"{m} ({os.path.join(args.out, m + '.optimize.log')})" for m in unplanned)
        lines.append(f"Not timed: `layoutopt optimize` failed on {logs}.")
    table = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "peers.md"), "w") as f:
        f.write(table)
    with open(os.path.join(args.out, "peers.csv"), "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["model", "layoutopt_ms", "onnxruntime_ms", "pytorch_ms",
                         "layoutopt_over_onnxruntime", "layoutopt_over_pytorch"])
        writer.writerows([row[0]] + ["" if v is None else f"{v:.6g}" for v in row[1:]] for row in rows)
    with open(os.path.join(args.out, "rounds.csv"), "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["round", "model", "peer", "version", "mode", "median_ms", "q1_ms", "q3_ms", "runs", "threads"])
        for r in rounds:
            writer.writerow([r["round"], r["model"], r["peer"], r.get("version", ""), r.get("mode", ""),
                             r["median_ms"], r["q1_ms"], r["q3_ms"], int(r["runs"]), int(r["threads"])])
    write_svg(os.path.join(args.out, "peers.svg"), models, peers, summary, args.threads)
    return table


def write_svg_document(path, width, height, title, elements):
    """An SVG file of the given size: a bold title at the top, then `elements` (SVG strings)."""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           'font-family="sans-serif" font-size="12">',
           f'<text x="10" y="20" font-size="14" font-weight="bold">{html.escape(title)}</text>', *elements, "</svg>"]
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def write_svg(path, models, peers, summary, threads):
    """Horizontal grouped bars, one group per model, lengths relative to ONNX Runtime (whose
    bar is 1) so that networks of very different cost share one axis; labels give ms."""
    bar, gap, left, width, top = 16, 14, 110, 480, 50
    relative = {m: {p: summary[m][p] / summary[m]["onnxruntime"] for p in peers if summary[m].get(p) is not None}
                for m in models}
    largest = max([1.0] + [v for r in relative.values() for v in r.values()])
    step = next(s for s in (0.25, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000) if largest / s <= 8)
    ticks = int(-(-largest // step))
    limit = ticks * step
    group = len(peers) * bar + gap
    height = top + len(models) * group + 50
    out = []
    x = left
    for peer in peers:
        out.append(f'<rect x="{x}" y="30" width="12" height="12" fill="{COLORS[peer]}"/>'
                   f'<text x="{x + 16}" y="41">{html.escape(LABELS[peer])}</text>')
        x += 40 + 7 * len(LABELS[peer])
    for k in range(ticks + 1):
        x = left + width * k * step / limit
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{height - 40}" stroke="#ddd"/>'
                   f'<text x="{x:.1f}" y="{height - 25}" text-anchor="middle">{k * step:g}</text>')
    one = left + width / limit  # ONNX Runtime's latency
    out.append(f'<line x1="{one:.1f}" y1="{top}" x2="{one:.1f}" y2="{height - 40}" stroke="#444"/>')
    out.append(f'<text x="{left + width / 2}" y="{height - 8}" text-anchor="middle">'
               'latency / ONNX Runtime latency</text>')
    for j, model in enumerate(models):
        y0 = top + j * group
        out.append(f'<text x="{left - 8}" y="{y0 + len(peers) * bar / 2 + 4}" text-anchor="end">{html.escape(model)}</text>')
        for i, peer in enumerate(peers):
            if peer not in relative[model]:
                continue
            y, length = y0 + i * bar, width * relative[model][peer] / limit
            out.append(f'<rect x="{left}" y="{y + 1}" width="{length:.1f}" height="{bar - 2}" fill="{COLORS[peer]}"/>'
                       f'<text x="{left + length + 4:.1f}" y="{y + bar - 4}">{summary[model][peer]:.2f} ms</text>')
    write_svg_document(path, left + width + 120, height, f"Batch-1 latency, {threads} threads, relative to ONNX "
                       "Runtime (shorter is faster; labels in ms)", out)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", nargs="+", default=DEFAULT_MODELS, metavar="MODEL")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--budget", choices=["quick", "normal", "thorough"], default="quick",
                        help="tuning budget of `layoutopt optimize` (default quick)")
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "peers"))
    parser.add_argument("--replan", action="store_true", help="run `layoutopt optimize` even if the plan exists")
    parser.add_argument("--skip-layoutopt", action="store_true", help="time only ONNX Runtime and PyTorch")
    parser.add_argument("--layoutopt", default=os.path.join(ROOT, "build", "apps", "layoutopt"))
    parser.add_argument("--warmup", type=int, default=5, help="warm-up runs of ONNX Runtime and PyTorch")
    parser.add_argument("--min-seconds", type=float, default=5.0,
                        help="minimum timed seconds per run of ONNX Runtime and PyTorch (at least 10 runs)")
    args = parser.parse_args()
    args.load_before = os.getloadavg()[0]
    if args.load_before > 0.5:
        print(f"compare_peers: warning: the machine is busy (1-minute load average {args.load_before:.2f}); "
              "timings of OpenMP-based peers suffer most", file=sys.stderr)
    if args.threads < 1 or args.rounds < 1:
        fail("--threads and --rounds need positive integers")
    args.out = os.path.abspath(args.out)
    peers = [p for p in PEERS if not (p == "layoutopt" and args.skip_layoutopt)]

    check_prerequisites(args)
    models_dir = os.path.join(args.out, "models")
    os.makedirs(models_dir, exist_ok=True)
    # A model already in the models folder (a user's own export) is used as it is.
    missing = [m for m in args.models if not os.path.exists(os.path.join(models_dir, m + ".onnx"))]
    if missing:
        export = subprocess.run([TORCH_PYTHON, os.path.join(PEERS_DIR, "export_models.py"), "--out", models_dir]
                                + missing)
        if export.returncode != 0:
            fail("exporting the models failed (see above)")
    onnx_paths = {m: os.path.join(models_dir, m + ".onnx") for m in args.models}
    plans = {m: plan(args, m, onnx_paths[m]) for m in args.models} if "layoutopt" in peers else {}
    unplanned = [m for m, path in plans.items() if path is None]
    models = [m for m in args.models if m not in unplanned]
    if not models:
        fail(f"no model could be planned ({', '.join(unplanned)}; see the messages above)")
    # PyTorch runs the torchvision network of the same name, so it times only those.
    rebuilt = set(subprocess.run([TORCH_PYTHON, os.path.join(PEERS_DIR, "export_models.py"), "--list"],
                                 capture_output=True, text=True, check=True).stdout.split())
    peers_of = {m: [p for p in peers if p != "pytorch" or m in rebuilt] for m in models}
    unrebuilt = [m for m in models if m not in rebuilt]
    if "pytorch" in peers and unrebuilt:
        print(f"compare_peers: PyTorch times only the networks it rebuilds by name; not {', '.join(unrebuilt)}",
              file=sys.stderr)

    rounds, latest = [], {m: {} for m in models}
    with open(os.path.join(args.out, "rounds.jsonl"), "w") as raw:
        for number in range(1, args.rounds + 1):
            for model in models:
                for peer in peers_of[model]:
                    result = time_peer(args, peer, onnx_paths[model], plans.get(model))
                    result.update(round=number, model=model)
                    rounds.append(result)
                    latest[model][peer] = result
                    raw.write(json.dumps(result) + "\n")
                    raw.flush()
                    print(f"[round {number}/{args.rounds}] {model:<14} {peer:<12} median {result['median_ms']:9.3f} ms "
                          f"(quartiles {result['q1_ms']:.3f} - {result['q3_ms']:.3f}, {int(result['runs'])} runs)",
                          flush=True)

    summary = {m: {p: statistics.median(r["median_ms"] for r in rounds if r["model"] == m and r["peer"] == p)
                   for p in peers_of[m]} for m in models}
    notes = {m: outputs_agree(latest[m]) for m in models}
    print()
    print(write_reports(args, models, peers, rounds, summary, notes, unplanned), end="")
    written = ("peers.md", "peers.csv", "peers.svg", "rounds.csv", "rounds.jsonl")
    print(f"\nwrote {', '.join(os.path.join(args.out, name) for name in written)}")


if __name__ == "__main__":
    main()
