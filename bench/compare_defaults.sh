#!/bin/bash
# Two layoutopt builds' default schedules (`bench` without a plan) against ONNX Runtime, in
# alternating rounds: how a change to the default rule moves untuned networks.
#
#   bench/compare_defaults.sh ROUNDS BEFORE_BINARY AFTER_BINARY MODEL.onnx...
#
# Prints one line per timing (model, round, side, median ms), then per model the median of
# the round medians and of the per-round ratios (range over rounds). Needs node and
# bench/peers' onnxruntime-node (scripts/install-deps.sh --peers).
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 ROUNDS BEFORE_BINARY AFTER_BINARY MODEL.onnx..." >&2
  exit 2
fi
rounds=$1 before=$2 after=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
median_ms() { python3 -c 'import json, sys; print(json.load(sys.stdin)["median_ms"])'; }
for round in $(seq "$rounds"); do
  for model in "$@"; do
    name=$(basename "$model" .onnx)
    echo "$name $round before $("$before" bench "$model" --threads 2 --json | median_ms)" | tee -a "$log"
    echo "$name $round after $("$after" bench "$model" --threads 2 --json | median_ms)" | tee -a "$log"
    echo "$name $round ort $(node "$here/peers/ort_bench.js" "$model" --threads 2 --json | median_ms)" | tee -a "$log"
  done
done
python3 - "$log" <<'EOF'
import collections, statistics, sys
runs = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    model, round_, side, ms = line.split()
    runs[(model, round_)][side] = float(ms)
models = list(dict.fromkeys(model for model, _ in runs))
print("| model | before ms | after ms | ONNX Runtime ms | after / before | after / ONNX Runtime |")
print("|---|---:|---:|---:|---:|---:|")
for model in models:
    rounds = [r for (m, _), r in runs.items() if m == model]
    med = lambda side: statistics.median(r[side] for r in rounds)
    def ratio(a, b):
        values = [r[a] / r[b] for r in rounds]
        return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"
    print(f"| {model} | {med('before'):.2f} | {med('after'):.2f} | {med('ort'):.2f} | "
          f"{ratio('after', 'before')} | {ratio('after', 'ort')} |")
EOF
