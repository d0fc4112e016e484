#!/usr/bin/python3
"""Does PBQP's default prove what `--prove` proves quickly? Over a library of generated
instances (every structure with an irreducible core, 30 to 300 nodes, 8 and 16 candidates,
two seeds), each instance is solved three ways with `layoutopt solve --json`:

    --solver pbqp --prove --time-limit P      the proof, given P seconds (default 0.2)
    --solver pbqp                             the default (10 s limit)
    --solver dp                               the optimum, where DP's tables fit

and one row per instance prints both answers, whether each is proven, its gap and its time.
The summary counts the instances the proof closed within P seconds and how many of those the
default also answered optimally; where the default is not proven it must report a gap.

    /usr/bin/python3 bench/default_proofs.py [--layoutopt build/apps/layoutopt]
        [--prove-seconds 0.2] [--out out/default-proofs]

Run it on a quiet host: both the proof's closing time and the default's proof budget are
wall-clock seconds.
"""

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
STRUCTURES = ["dense", "grid", "random", "inception"]
SIZES = [30, 60, 100, 300]
CANDIDATES = [8, 16]
SEEDS = [1, 2]


def solve(layoutopt, path, *flags):
    """The solver's JSON answer, or None where it refuses (dp on wide cores)."""
    done = subprocess.run([layoutopt, "solve", path, "--json", *flags], capture_output=True, text=True)
    return json.loads(done.stdout) if done.returncode == 0 else None


def instance(layoutopt, out, structure, nodes, candidates, seed):
    path = os.path.join(out, f"{structure}-{nodes}-{candidates}-{seed}.json")
    if not os.path.exists(path):
        subprocess.run([layoutopt, "gen-instance", "--structure", structure, "--nodes", str(nodes), "--candidates",
                        str(candidates), "--seed", str(seed), "-o", path], check=True, capture_output=True)
    return path


def describe(answer):
    if answer is None:
        return "refused"
    gap = answer.get("gap")
    proof = "proven" if answer["optimal"] else (f"gap {100 * gap:.3f}%" if gap is not None else "no bound")
    return f"{answer['cost']:.4f} {proof} {1e3 * answer['seconds']:.1f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layoutopt", default=os.path.join(ROOT, "build", "apps", "layoutopt"))
    parser.add_argument("--prove-seconds", type=float, default=0.2)
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "default-proofs"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    quick, matched, unbounded, rows = 0, 0, 0, []
    print("instance | --prove | default | dp")
    for structure in STRUCTURES:
        for nodes in SIZES:
            for candidates in CANDIDATES:
                for seed in SEEDS:
                    path = instance(args.layoutopt, args.out, structure, nodes, candidates, seed)
                    proven = solve(args.layoutopt, path, "--solver", "pbqp", "--prove", "--time-limit",
                                   str(args.prove_seconds))
                    default = solve(args.layoutopt, path, "--solver", "pbqp")
                    exact = solve(args.layoutopt, path, "--solver", "dp")
                    name = os.path.basename(path)[:-5]
                    print(f"{name} | {describe(proven)} | {describe(default)} | {describe(exact)}", flush=True)
                    closed = proven is not None and proven["optimal"] and proven["seconds"] <= args.prove_seconds
                    if closed:
                        quick += 1
                        matched += default["optimal"] and abs(default["cost"] - proven["cost"]) <= 1e-9 * (
                            1 + abs(proven["cost"]))
                    if not default["optimal"] and default.get("gap") is None:
                        unbounded += 1
                    rows.append({"instance": name, "prove": proven, "default": default, "dp": exact})
    with open(os.path.join(args.out, "rows.json"), "w") as f:
        json.dump(rows, f)
    print(f"\n{len(rows)} instances; --prove closed {quick} within {args.prove_seconds} s; the default proved the same "
          f"optimum on {matched} of them; unproven defaults without a gap: {unbounded}")
    sys.exit(0 if matched == quick and unbounded == 0 else 1)


if __name__ == "__main__":
    main()
