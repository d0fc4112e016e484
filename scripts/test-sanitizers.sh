#!/usr/bin/env bash
# The sanitizer configuration: AddressSanitizer + UndefinedBehaviorSanitizer builds of the
# libraries without JIT or external runtimes (layout, graph incl. ONNX import, solvers, the
# runtime's file formats) and
# their suites. Run by scripts/test.sh after the Release suite.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cmake -S "$root" -B "$root/build-asan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DLAYOUTOPT_SANITIZE=ON -DLAYOUTOPT_BUILD_BENCH=OFF
cmake --build "$root/build-asan" -j "$(nproc)" --target test_layout test_graph test_solvers test_runtime
cd "$root/build-asan"
ctest --output-on-failure --timeout 600 -R '^(layout|graph|solvers|runtime)$'
