#!/usr/bin/env python3
"""Runs the CLI tests (tests/apps/test_*.py) against one layoutopt binary.

    python3 tests/apps/run_cli_tests.py --binary build/apps/layoutopt --source .

ctest passes the binary CMake built ($<TARGET_FILE:layoutopt>). Extra arguments go to
unittest (e.g. -k plan to run only the plan cases).
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
    args, unittest_args = parser.parse_known_args()
    # cli_runner reads these; environment variables reach every test module alike.
    os.environ["LAYOUTOPT_BINARY"] = os.path.abspath(args.binary)
    os.environ["LAYOUTOPT_SOURCE_DIR"] = os.path.abspath(args.source)
    sys.path.insert(0, HERE)
    unittest_argv = [sys.argv[0], "discover", "-s", HERE, "-p", "test_*.py", "-t", HERE, *unittest_args]
    program = unittest.main(module=None, argv=unittest_argv, exit=False, verbosity=2)
    return 0 if program.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
