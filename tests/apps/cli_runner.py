"""Running the layoutopt binary from a test, and what every outcome must look like.

A failure must exit with a positive code (a negative one is a signal: a crash), print no
sign of an abort or a sanitizer report, and name the problem on stderr. Each test runs in
its own scratch folder, so default output paths (out/MODEL/...) never touch the tree.
"""

import concurrent.futures
import hashlib
import os
import subprocess
import tempfile
import unittest
from dataclasses import dataclass
from pathlib import Path

BINARY = os.environ.get("LAYOUTOPT_BINARY", "")
SOURCE_DIR = Path(os.environ.get("LAYOUTOPT_SOURCE_DIR", "."))

# What a crash leaves on stderr: an uncaught exception, a failed assert, a signal, ASan/UBSan.
CRASH_MARKERS = ("terminate called", "Assertion", "Segmentation fault", "Aborted", "core dumped",
                 "AddressSanitizer", "UndefinedBehaviorSanitizer", "runtime error:", "LeakSanitizer")

# Enough for any error path; success paths here use tiny models.
TIMEOUT_S = 120
# Runs started together (each is mostly process start-up and library loading).
PARALLEL_RUNS = 4


@dataclass
class Outcome:
    args: tuple
    returncode: int
    stdout: str
    stderr: str

    def describe(self) -> str:
        return (f"layoutopt {' '.join(self.args)}\nexit {self.returncode}\n"
                f"stdout:\n{self.stdout[-2000:]}\nstderr:\n{self.stderr[-2000:]}")


def run_binary(args, cwd: Path) -> Outcome:
    """One run of the binary in `cwd`, on one OpenMP thread unless --threads says otherwise."""
    args = tuple(map(str, args))
    done = subprocess.run([BINARY, *args], cwd=cwd, capture_output=True, text=True, errors="replace",
                          timeout=TIMEOUT_S, env={**os.environ, "OMP_NUM_THREADS": "1"})
    return Outcome(args, done.returncode, done.stdout, done.stderr)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class CliTestCase(unittest.TestCase):
    """A test case with a scratch folder that is the binary's working directory."""

    def setUp(self):
        if not BINARY:
            self.skipTest("LAYOUTOPT_BINARY is not set (run through run_cli_tests.py)")
        self._scratch = tempfile.TemporaryDirectory(prefix="layoutopt-cli-")
        self.dir = Path(self._scratch.name)

    def tearDown(self):
        self._scratch.cleanup()

    def path(self, name: str) -> Path:
        return self.dir / name

    def run_cli(self, *args) -> Outcome:
        return run_binary(args, self.dir)

    def run_all(self, argument_lists) -> list:
        """Runs several command lines at once; outcomes in the order given."""
        with concurrent.futures.ThreadPoolExecutor(PARALLEL_RUNS) as pool:
            return list(pool.map(lambda args: self.run_cli(*args), argument_lists))

    def assert_no_crash(self, outcome: Outcome):
        self.assertGreaterEqual(outcome.returncode, 0, "killed by a signal:\n" + outcome.describe())
        for marker in CRASH_MARKERS:
            self.assertNotIn(marker, outcome.stderr, "crashed:\n" + outcome.describe())

    def assert_failed(self, outcome: Outcome, *needles: str):
        """Exit code non-zero, no crash, and every needle in the error output."""
        self.assert_no_crash(outcome)
        self.assertNotEqual(outcome.returncode, 0, "accepted:\n" + outcome.describe())
        for needle in needles:
            self.assertIn(needle, outcome.stderr, "message does not name the problem:\n" + outcome.describe())

    def expect_failure(self, *args, needles=()) -> Outcome:
        outcome = self.run_cli(*args)
        self.assert_failed(outcome, *needles)
        return outcome

    def expect_success(self, *args, stdout=()) -> Outcome:
        outcome = self.run_cli(*args)
        self.assert_no_crash(outcome)
        self.assertEqual(outcome.returncode, 0, outcome.describe())
        for needle in stdout:
            self.assertIn(needle, outcome.stdout, outcome.describe())
        return outcome

    def assert_unchanged(self, path: Path, before: str):
        """`before` is digest(path) taken before the command ran."""
        self.assertTrue(path.exists(), f"{path} was removed")
        self.assertEqual(digest(path), before, f"{path} was changed")
