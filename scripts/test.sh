#!/usr/bin/env bash
# The test command: installs what is missing, builds, runs the whole suite with ctest, then
# the sanitizer configuration (ASan + UBSan) of the JIT-free libraries, then a short run of
# every fuzz target: 10,000 executions each with a fixed seed (clang, libFuzzer + ASan +
# UBSan; scripts/fuzz.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/build.sh"
(cd "$root/build" && ctest --output-on-failure --timeout 600 -j "$(nproc)")
bash "$root/scripts/test-sanitizers.sh"
bash "$root/scripts/fuzz.sh"
