#!/usr/bin/python3
"""Times several plans of one network side by side: quick against normal budget, a plan
against the untuned default, and optionally ONNX Runtime, in alternating rounds.

A shared host's speed moves 1.5x between minutes, so two plans timed minutes apart say little.
Here every round times each side once, back to back, starting one side later each round (so
no side always runs first after a pause), and each side's ratio to the reference side is
taken per round: slow spells that move a whole round cancel out. Every timing is a fresh
process, and a process keeps one of two speeds for its life on some hosts (bench/HISTORY.md,
2026-12-04), so single rounds scatter and the medians are the figures. Reported per side: the
median of its round medians with their range, and the median of its per-round ratios to the
reference with their range.

    bench/compare_plans.py MODEL.onnx --plan quick=Q.plan.json --plan normal=N.plan.json
                           [--default] [--ort] [--side-by-side] [--reference NAME] [--rounds 5] [--threads 2]
                           [--layoutopt build/apps/layoutopt] --out DIR [--force]

Sides: each --plan NAME=PATH runs `layoutopt bench MODEL --plan PATH --threads N --json`;
--side-by-side adds each plan again as NAME+sbs, run with `--side-by-side` (docs/design/side-by-side.md);
--default adds the untuned default (`layoutopt bench MODEL`); --ort adds ONNX Runtime
(bench/peers/ort_bench.js, installed by `bash scripts/install-deps.sh --peers`). The
reference is the first side unless --reference names another. Writes DIR/plans.md (the
table, also printed), DIR/plans.svg (the medians with their round ranges) and
DIR/rounds.jsonl (every run); refuses a DIR that holds them unless --force.
"""

import argparse
import datetime
import html
import json
import os
import statistics
import sys

from compare_peers import PEERS_DIR, ROOT, fail, machine_description, paired_text, time_command, write_svg_document

OUTPUTS = ("plans.md", "plans.svg", "rounds.jsonl")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", help="the ONNX file every plan was made for")
    parser.add_argument("--plan", action="append", default=[], metavar="NAME=PATH", help="a plan to time (repeatable)")
    parser.add_argument("--default", action="store_true", help="also time the untuned default schedule")
    parser.add_argument("--ort", action="store_true", help="also time ONNX Runtime")
    parser.add_argument("--side-by-side", action="store_true",
                        help="also time each plan with independent steps side by side (NAME+sbs: bench --side-by-side)")
    parser.add_argument("--reference", help="the side the ratios divide by (default: the first)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--layoutopt", default=os.path.join(ROOT, "build", "apps", "layoutopt"))
    parser.add_argument("--out", required=True, help="directory for plans.md, plans.svg and rounds.jsonl")
    parser.add_argument("--force", action="store_true", help="overwrite the reports kept in --out")
    args = parser.parse_args()
    if args.rounds < 1 or args.threads < 1:
        parser.error("--rounds and --threads need positive integers")
    return args


def sides_of(args):
    """[(name, command)] in the order given: plans, then the default, then ONNX Runtime."""
    if not os.path.isfile(args.model):
        fail(f"no ONNX file {args.model}")
    bench = [args.layoutopt, "bench", args.model, "--threads", str(args.threads), "--json"]
    sides = []
    for spec in args.plan:
        name, sep, path = spec.partition("=")
        if not sep or not name or not path:
            fail(f"--plan takes NAME=PATH, got '{spec}'")
        if not os.path.isfile(path):
            fail(f"plan '{name}': no file {path}")
        sides.append((name, bench + ["--plan", path]))
        if args.side_by_side:
            sides.append((name + "+sbs", bench + ["--plan", path, "--side-by-side"]))
    if args.default:
        sides.append(("default", bench))
    if args.ort:
        if not os.path.isfile(os.path.join(PEERS_DIR, "node_modules", "onnxruntime-node", "package.json")):
            fail("onnxruntime-node is not installed; install the peers with `bash scripts/install-deps.sh --peers`")
        sides.append(("onnxruntime", ["node", os.path.join(PEERS_DIR, "ort_bench.js"), args.model,
                                      "--threads", str(args.threads), "--json"]))
    names = [name for name, _ in sides]
    if len(sides) < 2:
        fail("give at least two sides (--plan NAME=PATH, --default, --ort)")
    if len(set(names)) != len(names):
        fail(f"side names repeat: {', '.join(names)}")
    if args.reference is not None and args.reference not in names:
        fail(f"--reference {args.reference} is not a side ({', '.join(names)})")
    if any(command[0] == args.layoutopt for _, command in sides) and not os.access(args.layoutopt, os.X_OK):
        fail(f"layoutopt binary {args.layoutopt} not found: build it with `bash scripts/build.sh` or pass --layoutopt")
    return sides


def time_rounds(args, sides, log):
    """Every side once per round, the starting side rotating; returns {name: [median per round]}."""
    medians = {name: [] for name, _ in sides}
    for number in range(args.rounds):
        order = sides[number % len(sides):] + sides[:number % len(sides)]
        for name, command in order:
            result = time_command(command, name, args.threads)
            result.update(round=number + 1, side=name)
            log.write(json.dumps(result) + "\n")
            log.flush()
            medians[name].append(result["median_ms"])
            print(f"[round {number + 1}/{args.rounds}] {name:<12} median {result['median_ms']:9.3f} ms "
                  f"(quartiles {result['q1_ms']:.3f} - {result['q3_ms']:.3f}, {int(result['runs'])} runs)", flush=True)
    return medians


def report(args, model, medians, reference):
    lines = [f"# Plans of {model}, batch 1, {args.threads} threads", "",
             f"{machine_description()}; {args.rounds} rounds, each side once per round; "
             f"{datetime.datetime.now().isoformat(timespec='seconds')}; 1-minute load average before the runs "
             f"{args.load_before:.2f}.", "",
             f"| side | median ms | round medians | / {reference} (rounds) |", "|---|---:|---:|---:|"]
    for name, values in medians.items():
        ratios = [v / r for v, r in zip(values, medians[reference])]
        lines.append(f"| {name} | {statistics.median(values):.3f} | {min(values):.3f}-{max(values):.3f} "
                     f"| {paired_text(ratios)} |")
    lines += ["", f"Each ratio is the median of the rounds' own ratios to {reference} (their range in "
              "parentheses); below 1 is faster."]
    return "\n".join(lines) + "\n"


def write_svg(path, medians, title):
    """One bar per side (its median), a whisker over its round medians' range."""
    bar, left, width, top = 22, 110, 420, 40
    largest = max(max(values) for values in medians.values())
    height = top + len(medians) * bar + 30
    scale = width / largest
    out = []
    for i, (name, values) in enumerate(medians.items()):
        y = top + i * bar
        low, high, mid = min(values) * scale, max(values) * scale, statistics.median(values) * scale
        out.append(f'<text x="{left - 8}" y="{y + bar / 2 + 4}" text-anchor="end">{html.escape(name)}</text>'
                   f'<rect x="{left}" y="{y + 3}" width="{mid:.1f}" height="{bar - 6}" fill="#1f77b4"/>'
                   f'<line x1="{left + low:.1f}" y1="{y + bar / 2}" x2="{left + high:.1f}" y2="{y + bar / 2}" '
                   'stroke="#000" stroke-width="2"/>'
                   f'<text x="{left + high + 6:.1f}" y="{y + bar / 2 + 4}">{statistics.median(values):.2f} ms</text>')
    out.append(f'<text x="{left}" y="{height - 8}">bars: median of the round medians; lines: their range</text>')
    write_svg_document(path, left + width + 110, height, title, out)


def main():
    args = parse_args()
    sides = sides_of(args)
    reference = args.reference or sides[0][0]
    os.makedirs(args.out, exist_ok=True)
    kept = [name for name in OUTPUTS if os.path.exists(os.path.join(args.out, name))]
    if kept and not args.force:
        fail(f"{args.out} holds {', '.join(kept)} already; pass --force to overwrite, or another --out")
    args.load_before = os.getloadavg()[0]
    if args.load_before > 0.5:
        print(f"warning: the machine is busy (1-minute load average {args.load_before:.2f})", file=sys.stderr)
    with open(os.path.join(args.out, "rounds.jsonl"), "w") as log:
        medians = time_rounds(args, sides, log)
    model = os.path.splitext(os.path.basename(args.model))[0]
    table = report(args, model, medians, reference)
    with open(os.path.join(args.out, "plans.md"), "w") as f:
        f.write(table)
    write_svg(os.path.join(args.out, "plans.svg"), medians, f"{model}: batch-1 latency per plan, {args.threads} threads")
    print()
    print(table, end="")
    print(f"\nwrote {', '.join(os.path.join(args.out, name) for name in OUTPUTS)}")


if __name__ == "__main__":
    main()
