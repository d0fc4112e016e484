#!/usr/bin/python3
"""Two layoutopt builds step by step: what a kernel change does inside a network.

On a shared host whole runs of one binary move 1.5x between minutes, so whole-run medians do
not resolve a 10% change to a few steps. Steps of one run share its host's speed, though: the
changed steps' time over the other steps' time of the same profiled run is steady to about
2% (docs/design/slow-spells.md). This script alternates the two binaries for ROUNDS rounds
of `layoutopt bench MODEL --threads N --profile --json [--plan P]`, keeps every profile, and
reports per model

  - with --steps (a regular expression over step names: the steps the change touches), their
    time over the other steps' time, per run, before and after, and the ratio of the medians;
  - the steps whose median share of their run's time moved most (a slow spell that stretched
    a whole run moves no share), to find what a change touched; with few rounds a share
    moves 5-10% by chance, so confirm a finding with --steps.

    bench/compare_steps.py --before OLD/layoutopt --after build/apps/layoutopt
                           --models M.onnx ... [--rounds 3] [--threads 2] [--plan P]
                           [--steps REGEX] --out DIR [--force | --report-only]

Writes DIR/MODEL_{before,after}_ROUND.json (every profile) and DIR/steps.md (the report, also
printed). Refuses a DIR that holds profiles already unless --force; --report-only reads the
profiles kept there instead of timing (to ask about other steps; --before and --after are
then not run).
"""

import argparse
import collections
import json
import math
import pathlib
import re
import statistics
import subprocess
import sys

SIDES = ("before", "after")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the old layoutopt binary")
    parser.add_argument("--after", required=True, help="the new layoutopt binary")
    parser.add_argument("--models", nargs="+", required=True, help="ONNX files (or zoo names)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--plan", help="a plan both binaries run (default: the untuned default)")
    parser.add_argument("--steps", help="regular expression over step names: the changed steps")
    parser.add_argument("--out", required=True, help="directory for the profiles and steps.md")
    parser.add_argument("--force", action="store_true", help="overwrite profiles already in --out")
    parser.add_argument("--report-only", action="store_true", help="report on the profiles kept in --out")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    return args


def model_name(model):
    return pathlib.Path(model).stem


def profile(binary, model, args, path):
    command = [binary, "bench", model, "--threads", str(args.threads), "--profile", "--json"]
    if args.plan:
        command += ["--plan", args.plan]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"compare_steps: {' '.join(command)} failed ({result.returncode}):\n{result.stderr}")
    path.write_text(result.stdout)
    return json.loads(result.stdout)


def step_times(run):
    """(occurrence, name) -> ms of one profiled run: steps are matched by name, and by their
    order among steps of the same name, so a step added or removed elsewhere does not shift
    the others."""
    seen = collections.Counter()
    times = {}
    for step in run["profile"]["steps"]:
        times[(seen[step["name"]], step["name"])] = step["measured_ms"]
        seen[step["name"]] += 1
    return times


def medians(runs):
    keys = set.intersection(*(set(r) for r in runs))
    return {k: statistics.median(r[k] for r in runs) for k in keys}


def shares_of_run(run):
    total = sum(run.values())
    return {k: ms / total for k, ms in run.items()} if total > 0 else run


def most_moved(runs, count=10):
    """The steps whose median share of their run moved most, as (share after / before, key)."""
    before = medians([shares_of_run(r) for r in runs["before"]])
    after = medians([shares_of_run(r) for r in runs["after"]])
    moved = [(after[k] / before[k], k) for k in before if k in after and before[k] > 0 and after[k] > 0]
    return sorted(moved, key=lambda m: -abs(math.log(m[0])))[:count]


def share(run, changed):
    mine = sum(ms for k, ms in run.items() if k in changed)
    others = sum(ms for k, ms in run.items() if k not in changed)
    return mine / others if others > 0 else float("nan")


def share_table(runs, changed):
    """The changed steps' time over the other steps' time per run, and after / before."""
    shares = {side: [share(r, changed) for r in runs[side]] for side in SIDES}
    lines = [f"{len(changed)} steps matched; their time over the other steps' time of the same run:", "",
             "| side | per run | median | matched steps, ms per run |", "|---|---|---:|---|"]
    for side in SIDES:
        ms = [sum(v for k, v in r.items() if k in changed) for r in runs[side]]
        lines.append(f"| {side} | {' '.join(f'{s:.3f}' for s in shares[side])} | "
                     f"{statistics.median(shares[side]):.3f} | {' '.join(f'{m:.2f}' for m in ms)} |")
    ratio = statistics.median(shares["after"]) / statistics.median(shares["before"])
    return lines + ["", f"after / before: **{ratio:.3f}**", ""]


def report(model, runs, args):
    before, after = medians(runs["before"]), medians(runs["after"])
    lines = [f"## {model}", ""]
    if args.steps:
        pattern = re.compile(args.steps)
        changed = {k for k in before if pattern.search(k[1])}
        lines += share_table(runs, changed) if changed else [f"No step name matches {args.steps!r}.", ""]
    lines += ["Steps whose share of their run moved most:", "",
              "| step | before ms | after ms | share after / before |", "|---|---:|---:|---:|"]
    for ratio, k in most_moved(runs):
        lines.append(f"| {k[1]} | {before[k]:.3f} | {after[k]:.3f} | {ratio:.2f} |")
    return lines + [""]


def kept_profile(path):
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        sys.exit(f"compare_steps: cannot read the profile {path}: {error}")


def main():
    args = parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if any(out.glob("*_before_*.json")) and not (args.force or args.report_only):
        sys.exit(f"compare_steps: {out} holds profiles already; pass --force to overwrite them")
    runs = {model_name(m): {side: [] for side in SIDES} for m in args.models}
    for round_ in range(1, args.rounds + 1):
        for model in args.models:
            for side, binary in zip(SIDES, (args.before, args.after)):
                path = out / f"{model_name(model)}_{side}_{round_}.json"
                if args.report_only:
                    run = kept_profile(path)
                else:
                    print(f"round {round_}/{args.rounds}: {model_name(model)} {side}", file=sys.stderr, flush=True)
                    run = profile(binary, model, args, path)
                runs[model_name(model)][side].append(step_times(run))
    lines = ["# Steps before and after", "",
             f"`{' '.join(sys.argv)}`: {args.rounds} alternated rounds, {args.threads} threads.", ""]
    for model, sides in runs.items():
        lines += report(model, sides, args)
    text = "\n".join(lines)
    if not args.report_only:
        (out / "steps.md").write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
