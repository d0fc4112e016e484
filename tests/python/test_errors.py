"""Every C++ error reaches Python as a layoutopt.Error subclass carrying the C++ message:
bad artifacts (missing, truncated, damaged, another network's weights, no code, built for a
CPU feature this one lacks), bad models and plans. None of them crashes the interpreter."""

import shutil
import struct
from pathlib import Path

import numpy as np
import pytest

import layoutopt
from conftest import THREADS, TINY


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


MASK = (1 << 64) - 1
PRIME1, PRIME2 = 0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F


def checksum(data: bytes) -> int:
    """runtime/src/checksum.cpp in Python, to seal an edited program.bin."""
    def mix(lane, word):
        x = (lane ^ (word * PRIME2 & MASK)) & MASK
        return (((x << 31) | (x >> 33)) & MASK) * PRIME1 & MASK
    lanes = [PRIME1, PRIME2, ~PRIME1 & MASK, ~PRIME2 & MASK]
    at = 0
    while at + 32 <= len(data):
        for lane in range(4):
            lanes[lane] = mix(lanes[lane], struct.unpack_from("<Q", data, at + 8 * lane)[0])
        at += 32
    value = len(data) * PRIME1 & MASK
    for lane in lanes:
        value = mix(value, lane)
    for byte in data[at:]:
        value = mix(value, byte)
    return value ^ (value >> 29)


def require_feature(program: Path, feature: str):
    """Adds `feature` to the CPU features program.bin says its code needs, resealed
    (runtime/src/artifact_program.cpp: magic, u32 version, u64 size, u64 checksum, payload of
    triple, cpu, feature count and features, ...)."""
    data = program.read_bytes()
    header, payload = data[:28], data[28:]
    at = 0
    for _ in range(2):  # triple, cpu
        at += 8 + struct.unpack_from("<Q", payload, at)[0]
    count = struct.unpack_from("<Q", payload, at)[0]
    encoded = feature.encode()
    payload = (payload[:at] + struct.pack("<Q", count + 1) + struct.pack("<Q", len(encoded)) + encoded
               + payload[at + 8:])
    header = header[:12] + struct.pack("<QQ", len(payload), checksum(payload))
    program.write_bytes(header + payload)


def test_the_python_checksum_reads_the_artifact_as_the_runtime_does(tiny_artifact):
    data = (tiny_artifact / "program.bin").read_bytes()
    assert data[:8] == b"LOPROGRM"
    assert struct.unpack_from("<Q", data, 20)[0] == checksum(data[28:])


def test_an_artifact_for_a_cpu_with_an_instruction_set_this_one_lacks(artifact_copy):
    flags = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
    if "avx512er" in flags:
        pytest.skip("this CPU (a Xeon Phi) has AVX-512ER")
    require_feature(artifact_copy / "program.bin", "avx512er")
    with pytest.raises(layoutopt.ArtifactError) as error:
        layoutopt.Session.load(str(artifact_copy))
    assert "avx512er" in str(error.value) and "lacks" in str(error.value)


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


def test_bad_batch_and_thread_counts():
    with pytest.raises(layoutopt.GraphError, match="batch"):
        layoutopt.Session.compile(TINY, batch=0)
    with pytest.raises(layoutopt.KernelError, match="negative"):
        layoutopt.Session.compile(TINY, threads=-2)
    with pytest.raises(ValueError, match="threads must be positive"):
        layoutopt.plan(TINY, "never-written.json", model_costs=True, threads=-1, quiet=True)
