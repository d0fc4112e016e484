#!/usr/bin/env python3
"""Runs the CLI tests (tests/apps/test_*.py) against one layoutopt binary.

    python3 tests/apps/run_cli_tests.py --binary build/apps/layoutopt --source . [--modules plans models]

ctest passes the binary CMake built ($<TARGET_FILE:layoutopt>) and splits the modules over
two tests, so both cores work and each half keeps its own time limit (the sanitized build
runs the CLI several times slower). Without --modules every test_*.py runs. Extra arguments
go to unittest (e.g. -k plan to run only the plan cases).
"""

import argparse
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--binary", required=True, help="the layoutopt executable")
    parser.add_argument("--source", required=True, help="the repository root (for data/)")
    parser.add_argument("--modules", nargs="+", help="run only these modules (test_NAME.py)")
    args, unittest_args = parser.parse_known_args()
    # cli_runner reads these; environment variables reach every test module alike.
    os.environ["LAYOUTOPT_BINARY"] = os.path.abspath(args.binary)
    os.environ["LAYOUTOPT_SOURCE_DIR"] = os.path.abspath(args.source)
    sys.path.insert(0, HERE)
    if args.modules:
        missing = [m for m in args.modules if not os.path.isfile(os.path.join(HERE, f"test_{m}.py"))]
        if missing:
            parser.error(f"no test module {', '.join(f'test_{m}.py' for m in missing)} in {HERE}")
        unittest_argv = [sys.argv[0], *unittest_args, *(f"test_{m}" for m in args.modules)]
    else:
        unittest_argv = [sys.argv[0], "discover", "-s", HERE, "-p", "test_*.py", "-t", HERE, *unittest_args]
    program = unittest.main(module=None, argv=unittest_argv, exit=False, verbosity=2)
    return 0 if program.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
