"""Every C++ error reaches Python as a layoutopt.Error subclass carrying the C++ message:
bad artifacts (missing, truncated, damaged, another network's weights, no code, built for a
CPU feature this one lacks), bad models and plans. None of them crashes the interpreter."""

import shutil
import struct

import numpy as np
import pytest

import layoutopt
from conftest import SOURCE_DIR, THREADS, TINY


@pytest.fixture
def artifact_copy(tiny_artifact, tmp_path):
    folder = tmp_path / "copy"
    shutil.copytree(tiny_artifact, folder)
    return folder


def test_every_error_class_is_a_layoutopt_error():
    for name in ("GraphError", "PlanError", "SolverError", "ArtifactError", "KernelError", "NpyError",
                 "LayoutError", "RecordError", "XGBoostError"):
        cls = getattr(layoutopt, name)
        assert issubclass(cls, layoutopt.Error) and cls.__module__ == "layoutopt"
    assert issubclass(layoutopt.Error, Exception)


def test_a_missing_artifact(tmp_path):
    with pytest.raises(layoutopt.ArtifactError, match="cannot open"):
        layoutopt.Session.load(str(tmp_path / "nothing-here"))


@pytest.mark.parametrize("file", ["program.bin", "weights.bin"])
def test_a_truncated_artifact(artifact_copy, file):
    path = artifact_copy / file
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(layoutopt.ArtifactError, match="truncated"):
        layoutopt.Session.load(str(artifact_copy))


def test_a_damaged_artifact(artifact_copy):
    path = artifact_copy / "program.bin"
    data = bytearray(path.read_bytes())
    data[-7] ^= 0x10
    path.write_bytes(bytes(data))
    with pytest.raises(layoutopt.ArtifactError, match="damaged"):
        layoutopt.Session.load(str(artifact_copy))


def test_an_artifact_without_its_code(artifact_copy):
    (artifact_copy / "network.so").unlink()
    with pytest.raises(layoutopt.ArtifactError, match="network.so"):
        layoutopt.Session.load(str(artifact_copy))


def test_a_negative_thread_count(tiny_artifact):
    with pytest.raises(layoutopt.ArtifactError, match="negative"):
        layoutopt.Session.load(str(tiny_artifact), threads=-1)


def test_an_unknown_model():
    with pytest.raises(layoutopt.GraphError, match="unknown model 'no-such-net'"):
        layoutopt.Session.compile("no-such-net")


def test_a_model_that_is_a_folder(tmp_path):
    folder = tmp_path / "model.onnx"
    folder.mkdir()
    with pytest.raises(layoutopt.GraphError, match="is a folder"):
        layoutopt.Session.compile(str(folder))


def test_a_plan_that_is_not_json(tmp_path):
    plan = tmp_path / "broken.plan.json"
    plan.write_text("{ not json")
    with pytest.raises(layoutopt.PlanError):
        layoutopt.Session.compile(TINY, plan=str(plan), threads=THREADS)


def test_a_plan_for_another_model(tiny_plan):
    with pytest.raises(layoutopt.Error) as error:
        layoutopt.Session.compile("squeezenet-1.1", plan=str(tiny_plan), threads=THREADS)
    assert str(error.value)


def test_the_session_survives_errors(tiny_aot):
    """After each refusal the same session still runs."""
    spec = tiny_aot.inputs[0]
    for bad in (np.zeros(spec.shape, np.float64), np.zeros((1,), np.float32), "text", None):
        with pytest.raises((TypeError, ValueError)):
            tiny_aot.run(bad)
    assert tiny_aot.run(np.ones(spec.shape, np.float32))[0].shape == tiny_aot.outputs[0].shape
