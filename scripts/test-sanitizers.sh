#!/usr/bin/env bash
# The sanitizer configuration: every ctest test of ours, built with clang 14, ASan + UBSan
# (the fuzz targets' libraries also with libFuzzer's coverage hooks: one build with
# scripts/fuzz.sh, see scripts/sanitized-build.sh) into build-asan/, and run. Run by
# scripts/test.sh after the Release suite.
#
# Rules, each with its reason:
# - Every registered test runs but layering and include_cycles: Python scripts reading our
#   sources, with no compiled code of ours to sanitize.
# - The one code of ours not sanitized is the code the JIT generates: LLVM compiles the IR
#   the kernels emit at run time (and the AOT writer stores that code in artifacts), and no
#   sanitizer pass instruments it, so its own loads and stores go unchecked. Everything
#   around it is checked: lowering, weight re-layout, the compiled network, the AOT writer,
#   the runtime that loads and runs artifacts, measure/, the CLI, the Python module. (The
#   libraries we only link, LLVM, OpenMP, XGBoost, protobuf, are not instrumented either.)
# - The Python suite runs under ASan: Debian's python3 preloads clang's ASan runtime for
#   the module (tests/python/CMakeLists.txt), with leak checking off in that process only
#   (detect_leaks=0 there): CPython leaves its own objects to the OS at exit by design, and
#   an LSan suppression of them would match every stack through the interpreter, ours too.
#   The module's library code is leak-checked by the doctest suites, which call the same
#   functions.
# - The run checks that it ran everything: each pattern of `suites` below must match a
#   registered test, each registered test a pattern, and ctest must report as many tests
#   run as registered. A suite that went missing (a target not built, pytest or pybind11 not
#   found) fails the run instead of shrinking it; a new test needs its pattern here.
# - A suite too slow under ASan shrinks through an environment knob its test documents, never
#   by leaving the suite out: LAYOUTOPT_TEST_ZOO_SWEEP=reduced takes the VGGs (224 pixels,
#   minutes of naive reference convolutions each) out of the kernels suite's zoo sweep.
# - A sanitizer's first report fails the test (halt_on_error; the build also has
#   -fno-sanitize-recover=all). Leaks are errors; scripts/lsan.supp holds only leaks of
#   other projects' global state, one reason per entry, never ours.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Every test of ours, by the suite or group it belongs to (ctest names, extended regexes).
suites=(
  cpu layout layout_baseline_isa graph solvers runtime 'kernels(_networks)?' deploy  # doctest, one per library
  timing planning tuning costs evaluation distributed pipeline         # doctest, measure/ and pipeline/
  mpi_tune                                                             # mpirun -n 2 layoutopt tune (mpi/)
  'apps_.*'                                                            # the CLI's error paths
  'compile_cli_.*' 'c_api_.*' 'runtime_c_api_.*'                       # artifacts, the C API client
  'example_classify_.*'                                                # examples/ (C and Python)
  'install_.*'                                                         # the installed package
  '.*_links_no_llvm'                                                   # link lines
  python                                                               # the Python module (pytest)
  'fuzz_replay_.*'                                                     # past fuzz findings, seeds
)
skipped='layering|include_cycles'

start=$SECONDS
build="$(bash "$root/scripts/sanitized-build.sh" all)"
echo "sanitizers: build $((SECONDS - start)) s"
cd "$build"

mapfile -t registered < <(ctest -N --no-tests=error | sed -n 's/^ *Test *#[0-9]*: //p' | grep -vxE "$skipped")
# Matched against one string, not a pipe: under pipefail, `printf | grep -q` fails at random
# when grep exits on its first match before printf has written everything (SIGPIPE).
registered_lines="$(printf '%s\n' "${registered[@]}")"
missing=0
for suite in "${suites[@]}"; do
  if ! grep -qxE "$suite" <<<"$registered_lines"; then
    echo "sanitizers: suite '$suite' matches no registered test" >&2
    missing=1
  fi
done
for test in "${registered[@]}"; do
  if ! grep -qxE "$(IFS='|'; echo "${suites[*]}")" <<<"$test"; then
    echo "sanitizers: test '$test' is in no suite of scripts/test-sanitizers.sh" >&2
    missing=1
  fi
done
((missing == 0)) || exit 1

export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:strict_string_checks=1:check_initialization_order=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0"
# Test sizes for a sanitized run (each test that reads one says what it leaves out and why).
export LAYOUTOPT_TEST_ZOO_SWEEP=reduced
start=$SECONDS status=0
ctest --output-on-failure --no-tests=error --timeout 600 -j "$(nproc)" -E "^($skipped)\$" | tee "$build/ctest.log" ||
  status=$?
ran="$(sed -n 's/.*tests passed, [0-9]* tests failed out of \([0-9]*\)$/\1/p' "$build/ctest.log")"
echo "sanitizers: ${ran:-0} of ${#registered[@]} registered tests (${#suites[@]} suites) ran in $((SECONDS - start)) s"
((status == 0)) && [[ "$ran" == "${#registered[@]}" ]]
