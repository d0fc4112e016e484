#!/usr/bin/env bash
# The sanitizer configuration: the suites of the libraries without JIT or external runtimes
# (layout, graph incl. ONNX import, solvers, the runtime's file formats) built with ASan +
# UBSan (scripts/sanitized-build.sh) and run. Run by scripts/test.sh after the Release suite.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(bash "$root/scripts/sanitized-build.sh" test_layout test_graph test_solvers test_runtime)"
cd "$build"
ctest --output-on-failure --timeout 600 -R '^(layout|graph|solvers|runtime)$'
