#!/usr/bin/python3
"""`mpirun -n 2 layoutopt tune|bench-transforms` against a single-rank run, on one machine.

  python3 mpi_tune_test.py --binary build/apps/layoutopt --mpirun /usr/bin/mpirun

Both ranks share this host, so the runs pass --mpi-allow-shared-host (timings are not the
point here) and mpirun --bind-to none (by default it pins each rank to one core). Checks:
  - a budget inside the tuner's random warm-up makes the same configs in a single-rank run and
    a two-rank run: the same record count, tasks and configs, every record in rank 0's log;
  - two ranks time the transform table a single rank times: the same keys, every one timed in
    all its passes (by either rank), filed under rank 0's target and thread count;
  - without the flag, ranks on one host are refused before anything is timed;
  - a rank killed mid-run (mpirun --enable-recovery, short heartbeat timeout) loses nothing it
    reported and its config is measured by rank 0: the budget is met with distinct configs.
"""

import argparse
import collections
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

MODEL = "resnet-18"
WARMUP_TRIALS = 16  # within the tuner's random warm-up: configs do not depend on timings
TUNE = ["--threads", "1", "--min-repeat-ms", "5", "--quiet"]


def mpirun(args, ranks=2, recovery=False):
    command = [ARGS.mpirun, "-n", str(ranks), "--oversubscribe", "--bind-to", "none"]
    if recovery:
        command.append("--enable-recovery")
    if os.geteuid() == 0:
        command.append("--allow-run-as-root")
    return command + [ARGS.binary] + args


def records(path):
    """(task, config index) of every line of a record log."""
    with open(path) as log:
        lines = [json.loads(line) for line in log if line.strip()]
    return [(json.dumps(line["input"][1:3]), line["config"]["index"]) for line in lines]


def table(path):
    """Entries of a transform table by (target, threads, shape, layouts)."""
    with open(path) as file:
        entries = json.load(file)["entries"]
    return {(e["target"], e["threads"], json.dumps(e["shape"]), e["src"], e["dst"]): e for e in entries}


def rank_pids(rank):
    """Process ids of our binary running as MPI rank `rank`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/environ", "rb") as env:
                variables = env.read().split(b"\0")
            exe = os.readlink(f"/proc/{pid}/exe")
        except OSError:
            continue
        if exe == ARGS.binary and f"OMPI_COMM_WORLD_RANK={rank}".encode() in variables:
            found.append(int(pid))
    return found


class MpiTune(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.folder.cleanup()

    def log(self, name):
        return os.path.join(self.folder.name, name)

    def tune(self, command, timeout=120):
        run = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        self.assertEqual(run.returncode, 0, run.stderr[-3000:])
        return run

    def test_two_ranks_record_what_one_rank_records(self):
        single, double = self.log("single.jsonl"), self.log("double.jsonl")
        budget = ["--trials", str(WARMUP_TRIALS)] + TUNE
        self.tune([ARGS.binary, "tune", MODEL, "--records", single] + budget)
        self.tune(mpirun(["tune", MODEL, "--records", double, "--mpi-allow-shared-host"] + budget))
        one, two = records(single), records(double)
        self.assertEqual(len(two), WARMUP_TRIALS)
        self.assertEqual(collections.Counter(task for task, _ in two), collections.Counter(task for task, _ in one))
        self.assertEqual(sorted(two), sorted(one))

    def test_two_ranks_time_the_transforms_one_rank_times(self):
        single, double = self.log("single.json"), self.log("double.json")
        timing = ["--threads", "1", "--min-repeat-ms", "1", "--quiet"]
        self.tune([ARGS.binary, "bench-transforms", MODEL, "-o", single] + timing)
        run = self.tune(mpirun(["bench-transforms", MODEL, "-o", double, "--mpi-allow-shared-host"] + timing))
        one, two = table(single), table(double)
        self.assertGreater(len(one), 50)
        self.assertEqual(sorted(two), sorted(one))
        self.assertTrue(all(entry["repeats"] >= 3 for entry in two.values()), "every pass of every key")
        self.assertIn(f"{len(one)} transforms: {len(one)} timed now", run.stdout)

    def test_shared_host_refused_without_the_flag(self):
        log = self.log("refused.jsonl")
        run = subprocess.run(mpirun(["tune", MODEL, "--records", log, "--trials", "4"] + TUNE),
                             capture_output=True, text=True, timeout=120)
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("shared host: ranks 0 and 1", run.stderr)
        self.assertFalse(os.path.exists(log) and records(log), "nothing may be timed")

    def test_killed_rank_loses_nothing(self):
        log, trials = self.log("killed.jsonl"), 40
        command = mpirun(["tune", MODEL, "--records", log, "--trials", str(trials), "--mpi-allow-shared-host",
                          "--mpi-heartbeat-timeout", "3", "--threads", "1", "--min-repeat-ms", "20"], recovery=True)
        # Output to a file: an unread pipe that fills up would stall mpirun and every rank.
        output = open(self.log("killed.out"), "w+")
        job = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, text=True)
        try:
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline and not (os.path.exists(log) and len(records(log)) >= 6):
                time.sleep(0.2)
            pids = rank_pids(1)
            self.assertTrue(pids, "rank 1 is not running")
            before = records(log)
            for pid in pids:
                os.kill(pid, signal.SIGKILL)
            job.wait(timeout=120)
        finally:
            if job.poll() is None:
                job.terminate()  # mpirun passes it on to the ranks (SIGKILL would orphan them)
                job.wait(timeout=30)
            output.seek(0)
            err = output.read()
            output.close()
        self.assertEqual(job.returncode, 0, err[-3000:])
        after = records(log)
        self.assertEqual(after[:len(before)], before)  # what reached rank 0 stays
        self.assertEqual(len(after), trials)
        self.assertEqual(len(set(after)), trials)
        self.assertIn("1: ", err)
        self.assertIn("(lost)", err)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--mpirun", required=True)
    ARGS, rest = parser.parse_known_args()
    ARGS.binary = os.path.realpath(ARGS.binary)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
