"""Shared fixtures of the Python suite: the built module, the CLI binary, and one small
network (data/onnx/tiny-convnet.onnx) compiled once per run both ways, with the default
schedule and with a plan, on THREADS threads.

ctest runs the suite with PYTHONPATH=<build>/python, LAYOUTOPT_BINARY and
LAYOUTOPT_SOURCE_DIR set (tests/python/CMakeLists.txt).
"""

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

import layoutopt

# In the sanitized build ctest preloads the ASan runtime for this interpreter
# (tests/python/CMakeLists.txt); the CLI it starts links its own, and ASan refuses a second.
os.environ.pop("LD_PRELOAD", None)

SOURCE_DIR = Path(os.environ.get("LAYOUTOPT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BINARY = os.environ.get("LAYOUTOPT_BINARY", "")
TINY = str(SOURCE_DIR / "data" / "onnx" / "tiny-convnet.onnx")
# The artifact records its thread count; the JIT session must run at the same one for the
# two to be compared bit for bit.
THREADS = 2


def run_cli(*args, cwd=None):
    """Runs the layoutopt binary; fails the test with its output when it fails."""
    if not BINARY:
        pytest.skip("LAYOUTOPT_BINARY is not set (run through ctest)")
    done = subprocess.run([BINARY, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"layoutopt {' '.join(map(str, args))}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def random_input(spec, seed=7):
    return np.random.default_rng(seed).standard_normal(spec.shape, dtype=np.float32)


@pytest.fixture(scope="session")
def tiny_measurements(tmp_path_factory):
    """Records and a transform table of tiny-convnet, measured as briefly as will do: a few
    tuning trials per task, transforms timed for 1 ms each. About 25 s on a loaded host."""
    folder = tmp_path_factory.mktemp("measurements")
    records, transforms = folder / "tune.jsonl", folder / "transforms.json"
    layoutopt.tune(TINY, records=records, trials=12, batch_size=2, min_repeat_ms=2, threads=THREADS, quiet=True)
    run_cli("bench-transforms", TINY, "--records", records, "-o", transforms, "--threads", THREADS,
            "--min-repeat-ms", 1, "--quiet")
    return records, transforms


@pytest.fixture(scope="session")
def tiny_plan(tmp_path_factory, tiny_measurements):
    """A plan from measured costs (only those compile: a modelled plan names no tuned
    configs), without confirmation or calibration."""
    records, transforms = tiny_measurements
    path = tmp_path_factory.mktemp("plan") / "tiny.plan.json"
    layoutopt.plan(TINY, path, records=records, transforms=transforms, threads=THREADS, confirm=0,
                   calibrate_rounds=0, quiet=True)
    return path


@pytest.fixture(scope="session")
def tiny_artifact(tmp_path_factory, tiny_plan):
    """The tiny network compiled ahead of time for tiny_plan by the CLI, as a user would."""
    folder = tmp_path_factory.mktemp("aot") / "tiny"
    run_cli("compile", TINY, "--plan", tiny_plan, "-o", folder, "--threads", THREADS, "--quiet")
    return folder


@pytest.fixture(scope="session")
def tiny_jit(tiny_plan):
    return layoutopt.Session.compile(TINY, plan=str(tiny_plan), threads=THREADS)


@pytest.fixture(scope="session")
def tiny_aot(tiny_artifact):
    return layoutopt.Session.load(str(tiny_artifact))
