#!/usr/bin/env bash
# The fuzz run: builds the targets of fuzz/ in the sanitized configuration (build-asan/:
# clang, libFuzzer + ASan + UBSan; scripts/sanitized-build.sh) and runs each on its seeds and
# past findings (fuzz/regressions/). Exits non-zero as soon as a target crashes, hangs, leaks
# or trips a sanitizer; the input that did it is written to build-asan/artifacts/<target>/
# (never into the source tree) and printed as base64, the log to build-asan/logs/.
#
# Usage: scripts/fuzz.sh [--runs N] [--seconds S] [--seed K] [target...]
#   --runs N     executions per target (default 10000: what CI runs, the same inputs on
#                every machine given the seed); --seconds S  a wall-clock limit instead
#   --seed K     libFuzzer's random seed (default 1; 0 picks one per run)
#   target       onnx_import external_data graph_json plan records transform_table instance npy
#                (default: all)
# New inputs that reach new code are kept in build-asan/corpus/<target>/ and reused by the
# next run on the same machine.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

seconds=0 runs=10000 seed=1 targets=()
while (($#)); do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --seconds) seconds="$2"; runs=-1; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
((${#targets[@]})) || targets=(onnx_import external_data graph_json plan records transform_table instance npy)

build="$(bash "$root/scripts/sanitized-build.sh" fuzz_targets)"

# The longest input worth mutating (every seed fits) and the seeds, per target.
max_len_of() {
  case "$1" in
    onnx_import) echo 65536 ;;  graph_json) echo 32768 ;;  transform_table) echo 16384 ;;  *) echo 8192 ;;
  esac
}
seeds_of() {
  case "$1" in
    onnx_import) echo "$root/data/onnx" "$root/data/onnx/ops" "$root/data/onnx/torch2" ;;
    *) echo "$root/fuzz/corpus/$1" ;;
  esac
  [[ -d "$root/fuzz/regressions/$1" ]] && echo "$root/fuzz/regressions/$1" || true
}
seed_name_of() { [[ "$1" == onnx_import ]] && echo '*.onnx' || echo '*'; }

# The inputs a failed run left, base64-encoded into the output: a CI machine's build folder
# does not survive it, its log does. Decode one with `base64 -d > input` and replay it with
# build/fuzz/fuzz_replay_<target> input.
print_findings() {
  local file size
  for file in "$2"/*; do
    [[ -f "$file" ]] || continue
    size="$(stat -c %s "$file")"
    if ((size <= 65536)); then
      echo "fuzz: $1 input $(basename "$file") ($size bytes), base64:"
      base64 -w 0 "$file"
      echo
    else
      echo "fuzz: $1 input $(basename "$file") ($size bytes) is too large to print"
    fi
  done
}

for target in "${targets[@]}"; do
  max_len="$(max_len_of "$target")"
  seeds="$build/seeds/$target" corpus="$build/corpus/$target" artifacts="$build/artifacts/$target"
  mkdir -p "$seeds" "$corpus" "$artifacts" "$build/logs"
  # libFuzzer takes corpus folders only: copy the seed files that fit (the ONNX folders also
  # hold expected outputs and larger models).
  find $(seeds_of "$target") -maxdepth 1 -type f -name "$(seed_name_of "$target")" \
    -size -"$((max_len + 1))"c -exec cp -t "$seeds" {} +
  log="$build/logs/$target.log"
  echo "fuzz: $target (runs $runs, seconds $seconds, seed $seed, max_len $max_len)"
  if ! "$build/fuzz/fuzz_$target" "$corpus" "$seeds" -dict="$root/fuzz/dictionaries/$target.dict" \
       -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 -max_total_time="$seconds" -runs="$runs" -seed="$seed" \
       -artifact_prefix="$artifacts/" -print_final_stats=1 >"$log" 2>&1; then
    tail -n 60 "$log" >&2
    print_findings "$target" "$artifacts" >&2
    echo "fuzz: $target FAILED; input in $artifacts/, log $log" >&2
    exit 1
  fi
  grep -aE 'DONE|stat::number_of_executed_units|stat::average_exec_per_sec' "$log" | sed 's/^/  /'
done
