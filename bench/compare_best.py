#!/usr/bin/env python3
"""Compares the best config per task of two record logs (e.g. a tuned log against an
exhaustive sweep from `layoutopt tune MODEL --records sweep.jsonl --exhaustive TASK`).

    bench/compare_best.py tuned.jsonl sweep.jsonl

For every task (target, task name, args) present in both logs it prints the best time of
each and tuned GFLOPS / sweep GFLOPS (= sweep time / tuned time; 1.0 means the tuner found
a config as fast as the best of the whole space). Unreadable lines are skipped with a note.
"""
import json
import sys


def best_per_task(path):
    best = {}
    with open(path) as log:
        for number, line in enumerate(log, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                record = json.loads(line)
                target, name, args = record["input"][:3]
                costs, error_no = record["result"][:2]
            except (ValueError, KeyError, TypeError) as error:
                print(f"{path}:{number}: skipped ({error})", file=sys.stderr)
                continue
            if error_no != 0:
                continue
            key = (target, name, json.dumps(args))
            seconds = sum(costs) / len(costs)
            best[key] = min(best.get(key, seconds), seconds)
    return best


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    tuned, sweep = best_per_task(sys.argv[1]), best_per_task(sys.argv[2])
    common = [key for key in sweep if key in tuned]
    if not common:
        sys.exit("no task appears in both logs (same target, task name and arguments)")
    print(f"{'task':<28} {'workload':<40} {'tuned ms':>10} {'sweep ms':>10} {'ratio':>7}")
    for key in common:
        args = json.loads(key[2])
        workload = f"{args[0][1]} w{args[1][1]}"
        ratio = sweep[key] / tuned[key]
        print(f"{key[1]:<28} {workload:<40} {tuned[key] * 1e3:>10.4f} {sweep[key] * 1e3:>10.4f} {ratio:>7.3f}")


if __name__ == "__main__":
    main()
