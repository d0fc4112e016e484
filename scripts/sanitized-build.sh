#!/usr/bin/env bash
# The one sanitized configuration, shared by the sanitizer suites (test-sanitizers.sh) and the
# fuzz targets (fuzz.sh): clang with ASan + UBSan, every library also instrumented for
# libFuzzer (LAYOUTOPT_FUZZ), into build-asan/, with the tests, the examples and the Python
# module (so its code is position independent, as in the Release build). One build serves
# both because CI's time is bounded and the two would compile the same libraries twice.
# Usage: scripts/sanitized-build.sh TARGET...   (prints the build folder's path last)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build-asan"
# -O1 with line tables: the usual sanitizer trade-off (fast to build, readable stack traces).
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -gline-tables-only" \
  -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_C_COMPILER=clang-14 -DLAYOUTOPT_FUZZ=ON \
  -DLAYOUTOPT_BUILD_TESTS=ON -DLAYOUTOPT_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target "$@" >&2
echo "$build"
