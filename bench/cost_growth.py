#!/usr/bin/python3
"""How the main job's cost grows with the network: wall time of each phase against size.

For each built-in network of a size ladder (smallest to largest), with fresh files in
--out, it times the phases as separate commands, so each one's wall time is its own:

    layoutopt tune NET --trials (TRIALS_PER_TASK x tasks) --records R     tasks tuned
    layoutopt bench-transforms NET --records R -o T                        transforms timed
    layoutopt plan NET --records R --transforms T --calibrate-rounds 0 -o P   planning
    layoutopt compile NET --plan P -o A                                    compiling

The tuning trials are a fixed number per task, so that phase measures the per-task cost
rather than a wall-clock budget. Then for generated layout-selection problems of 100,
1,000 and 10,000 nodes (`gen-instance`, residual and inception structures) it times
`solve` with DP and with PBQP (the default, bounded proof included).

Per phase it fits time = a * size^b on a log-log scale (size: tasks for tuning, nodes
otherwise) and reports the exponent b: the trend the phase follows.

    bench/cost_growth.py [--nets N ...] [--trials-per-task 8] [--threads 2] [--out out/cost-growth] [--resume]

Writes cost-growth.md (the tables, also printed), cost-growth.csv and cost-growth.svg (time
against size per phase, log-log) into --out.
"""

import argparse
import csv
import datetime
import json
import math
import os
import platform
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_NETS = ["squeezenet-1.1", "resnet-18", "mobilenet-v2", "resnet-50", "inception-v3", "densenet-201",
                "resnet-152"]
GENERATED_SIZES = [100, 1000, 10000]
GENERATED_STRUCTURES = ["residual", "inception", "random", "grid", "dense"]
NETWORK_PHASES = ["tune", "bench-transforms", "plan", "compile"]


def snapshot_binary(out):
    """A copy of the built CLI taken at the start: a rebuild during the run (it takes tens of
    minutes) must not swap or remove the program between phases."""
    built = os.path.join(ROOT, "build", "apps", "layoutopt")
    if not os.path.exists(built):
        sys.exit(f"cost_growth: {built} is missing: build the project first")
    copy = os.path.join(out, "layoutopt")
    shutil.copy2(built, copy)
    return copy


def run(command):
    """Runs a command to completion; returns (wall seconds, the finished process)."""
    start = time.monotonic()
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return time.monotonic() - start, done


def timed(command):
    """Like run(), for commands that must succeed: a failure stops the script."""
    seconds, done = run(command)
    if done.returncode != 0:
        sys.exit(f"cost_growth: {' '.join(command)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return seconds, done.stdout


def shown_command(command, out):
    """A command as a reader would type it: the CLI by name, files relative to --out."""
    words = ["layoutopt"] + [os.path.relpath(w, out) if w.startswith(out) else w for w in command[1:]]
    return " ".join(words)


def network_facts(binary, net):
    _, out = timed([binary, "info", net, "--json"])
    info = json.loads(out)
    return {"nodes": info["nodes"], "tasks": len(info["tasks"]), "macs": info["macs"]}


def network_rows(binary, net, args):
    """One row per phase of one network, each phase run as its own command (with --resume,
    the rows an earlier run finished for this network)."""
    folder = os.path.join(args.out, net)
    os.makedirs(folder, exist_ok=True)
    finished = os.path.join(folder, "rows.json")
    if args.resume and os.path.exists(finished):
        with open(finished) as f:
            return json.load(f)
    records, transforms = os.path.join(folder, "tune.jsonl"), os.path.join(folder, "transforms.json")
    plan, artifact = os.path.join(folder, "plan.json"), os.path.join(folder, "artifact")
    for stale in (records, transforms, plan):
        if os.path.exists(stale):
            os.remove(stale)
    facts = network_facts(binary, net)
    threads = ["--threads", str(args.threads), "--quiet"]
    commands = {
        "tune": [binary, "tune", net, "--records", records, "--trials", str(args.trials_per_task * facts["tasks"])] +
        threads,
        "bench-transforms": [binary, "bench-transforms", net, "--records", records, "-o", transforms] + threads,
        "plan": [binary, "plan", net, "--records", records, "--transforms", transforms, "--calibrate-rounds", "0", "-o",
                 plan, "--force", "--threads", str(args.threads)],
        "compile": [binary, "compile", net, "--plan", plan, "-o", artifact, "--force"] + threads,
    }
    rows = []
    for phase in NETWORK_PHASES:
        seconds, _ = timed(commands[phase])
        size = facts["tasks"] if phase == "tune" else facts["nodes"]
        rows.append({"problem": net, "phase": phase, "size_kind": "tasks" if phase == "tune" else "nodes",
                     "size": size, "seconds": seconds, "command": shown_command(commands[phase], args.out)})
        print(f"  {net:16s} {phase:17s} {size:6d} {rows[-1]['size_kind']:5s} {seconds:9.2f} s", flush=True)
    with open(finished, "w") as f:
        json.dump(rows, f, indent=1)
    return rows


def solve_row(binary, instance, structure, nodes, solver):
    """One solve of a generated problem; dp's refusal of a problem over its memory budget is a
    result (the row says so), not a failure of the script."""
    seconds, done = run([binary, "solve", instance, "--solver", solver, "--json"])
    row = {"problem": f"{structure}-{nodes}", "phase": f"solve {solver}", "structure": structure,
           "size_kind": "nodes", "size": nodes,
           "seconds": seconds, "command": f"layoutopt solve {structure}-{nodes}.json --solver {solver}"}
    if done.returncode != 0:
        row.update(solver_seconds=0.0, optimal=False, gap=None, refused=done.stderr.strip().splitlines()[-1])
        print(f"  {structure}-{nodes:<8d} solve {solver:5s} refused: {row['refused']}", flush=True)
        return row
    answer = json.loads(done.stdout)
    row.update(solver_seconds=answer["seconds"], optimal=answer["optimal"], gap=answer.get("gap"), refused="")
    print(f"  {structure}-{nodes:<8d} solve {solver:5s} {seconds:9.3f} s (solver {answer['seconds']:.4f} s, "
          f"optimal {answer['optimal']})", flush=True)
    return row


def generated_rows(binary, args):
    rows = []
    for structure in GENERATED_STRUCTURES:
        for nodes in GENERATED_SIZES:
            instance = os.path.join(args.out, f"{structure}-{nodes}.json")
            timed([binary, "gen-instance", "--structure", structure, "--nodes", str(nodes), "--seed", "1", "-o",
                   instance, "--force"])
            for solver in ("dp", "pbqp"):
                rows.append(solve_row(binary, instance, structure, nodes, solver))
    return rows


def growth_exponent(points):
    """Least-squares slope of log(seconds) on log(size): the b of seconds = a * size^b."""
    points = [(math.log(s), math.log(t)) for s, t in points if s > 0 and t > 0]
    if len(points) < 2:
        return None
    mean_x = sum(x for x, _ in points) / len(points)
    mean_y = sum(y for _, y in points) / len(points)
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    if spread == 0:
        return None
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / spread


def trend_words(exponent):
    if exponent is None:
        return "n/a"
    if exponent < 0.3:
        return "about constant"
    if exponent < 1.3:
        return "about linear"
    if exponent < 2.3:
        return "about quadratic"
    return "steeper than quadratic"


def answer_words(row):
    if row["refused"]:
        return "refused: " + row["refused"].split(": ", 2)[-1][:90]
    if row["optimal"]:
        return "optimal"
    return f"gap {100 * row['gap']:.2f}%" if row["gap"] is not None else "unproven"


def series_of(row):
    """The trend a row belongs to: a network phase, or one solver on one generated structure
    (structures grow differently: treewidth, not size, sets a solver's cost)."""
    return f"{row['phase']} ({row['structure']})" if row.get("structure") else row["phase"]


def all_series(rows):
    return list(dict.fromkeys(series_of(r) for r in rows))


def growth_rows(rows, series):
    """The (size, seconds) points a trend is fitted to: refused solves have none."""
    key = "solver_seconds" if series.startswith("solve") else "seconds"
    return [(r["size"], r[key]) for r in rows if series_of(r) == series and not r.get("refused")]


def markdown(rows, args, host):
    lines = [f"Measured {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC on {host}, "
             f"{args.threads} threads; `bench/cost_growth.py --trials-per-task {args.trials_per_task}`.", ""]
    lines += ["| network | phase | size | wall s |", "|---|---|---|---|"]
    for row in rows:
        if row["phase"] in NETWORK_PHASES:
            lines.append(f"| {row['problem']} | {row['phase']} | {row['size']} {row['size_kind']} | "
                         f"{row['seconds']:.2f} |")
    lines += ["", "| generated problem | solver | nodes | wall s (command) | solver s | answer |",
              "|---|---|---|---|---|---|"]
    for row in rows:
        if row["phase"].startswith("solve"):
            lines.append(f"| {row['problem']} | {row['phase'][6:]} | {row['size']} | {row['seconds']:.3f} | "
                         f"{row['solver_seconds']:.4f} | {answer_words(row)} |")
    lines += ["", "| phase | fitted exponent b (seconds ~ size^b) | trend |", "|---|---|---|"]
    for series in all_series(rows):
        exponent = growth_exponent(growth_rows(rows, series))
        shown = "n/a" if exponent is None else f"{exponent:.2f}"
        lines.append(f"| {series} | {shown} | {trend_words(exponent)} |")
    return "\n".join(lines) + "\n"


def svg(rows):
    """Seconds against size per phase, both axes logarithmic."""
    width, height, margin = 640, 400, 60
    phases = [s for s in all_series(rows) if not s.startswith("solve") or "residual" in s or "dense" in s]
    colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]
    points = [(s, t, p) for p in phases for s, t in growth_rows(rows, p) if t > 0]
    lo_x, hi_x = math.log10(min(p[0] for p in points)), math.log10(max(p[0] for p in points))
    lo_y, hi_y = math.log10(min(p[1] for p in points)), math.log10(max(p[1] for p in points))
    hi_x, hi_y = max(hi_x, lo_x + 1), max(hi_y, lo_y + 1)

    def at(size, seconds):
        x = margin + (math.log10(size) - lo_x) / (hi_x - lo_x) * (width - 2 * margin)
        y = height - margin - (math.log10(seconds) - lo_y) / (hi_y - lo_y) * (height - 2 * margin)
        return x, y

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
           f'font-size="11">', f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{margin}" y="20">wall seconds against size (tasks for tune, nodes otherwise), log-log</text>']
    for index, phase in enumerate(phases):
        mine = sorted((s, t) for s, t, p in points if p == phase)
        color = colors[index % len(colors)]
        if len(mine) > 1:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in (at(s, t) for s, t in mine))
            out.append(f'<polyline points="{path}" fill="none" stroke="{color}"/>')
        for s, t in mine:
            x, y = at(s, t)
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{color}"/>')
        out.append(f'<text x="{width - margin - 130}" y="{40 + 14 * index}" fill="{color}">{phase}</text>')
    for decade in range(math.floor(lo_y), math.ceil(hi_y) + 1):
        if lo_y <= decade <= hi_y:
            _, y = at(10 ** lo_x, 10 ** decade)
            out.append(f'<text x="5" y="{y:.1f}">{10 ** decade:g} s</text>')
    for decade in range(math.floor(lo_x), math.ceil(hi_x) + 1):
        if lo_x <= decade <= hi_x:
            x, _ = at(10 ** decade, 10 ** lo_y)
            out.append(f'<text x="{x:.1f}" y="{height - 30}">{10 ** decade:g}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def host_name(binary):
    _, out = timed([binary, "cpu"])
    first = out.splitlines()[0].split(None, 1)[1].strip() if out else platform.processor()
    return f"{first}, {os.cpu_count()} vCPUs"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nets", nargs="+", default=DEFAULT_NETS)
    parser.add_argument("--trials-per-task", type=int, default=8)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "cost-growth"))
    parser.add_argument("--skip-networks", action="store_true", help="time the generated problems only")
    parser.add_argument("--resume", action="store_true", help="keep the networks an earlier run finished in --out")
    args = parser.parse_args()
    args.out = os.path.abspath(args.out)
    os.makedirs(args.out, exist_ok=True)
    binary = snapshot_binary(args.out)
    host = host_name(binary)
    rows = []
    if not args.skip_networks:
        for net in args.nets:
            rows += network_rows(binary, net, args)
    rows += generated_rows(binary, args)
    table = markdown(rows, args, host)
    print(table)
    with open(os.path.join(args.out, "cost-growth.md"), "w") as f:
        f.write(table)
    with open(os.path.join(args.out, "cost-growth.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["problem", "phase", "structure", "size_kind", "size", "seconds", "solver_seconds",
                                               "optimal", "gap", "refused", "command"])
        writer.writeheader()
        writer.writerows(rows)
    with open(os.path.join(args.out, "cost-growth.svg"), "w") as f:
        f.write(svg(rows))


if __name__ == "__main__":
    main()
