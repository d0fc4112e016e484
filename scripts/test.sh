#!/usr/bin/env bash
# The test command: installs what is missing, builds, runs the whole suite with ctest, then
# the whole suite again in the sanitizer configuration (ASan + UBSan on all but the code the
# JIT generates; scripts/test-sanitizers.sh), then a short run of every fuzz target: 10,000
# executions each with a fixed seed (clang, libFuzzer + ASan + UBSan; scripts/fuzz.sh).
# Every ctest call says --no-tests=error: a filter or build that yields no test fails.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/build.sh"
(cd "$root/build" && ctest --output-on-failure --no-tests=error --timeout 600 -j "$(nproc)")
bash "$root/scripts/test-sanitizers.sh"
bash "$root/scripts/fuzz.sh"
