"""Sessions: an ahead-of-time artifact and the JIT run the same plan to the same bits, agree
with the graph reference executor, take their inputs in every documented form, read a dense
float32 array in place, and refuse every bad input with the right exception."""

import concurrent.futures

import numpy as np
import pytest

import layoutopt
from conftest import THREADS, TINY, random_input


def test_aot_and_jit_describe_the_same_network(tiny_aot, tiny_jit):
    assert tiny_aot.kind == "aot" and tiny_jit.kind == "jit"
    assert [(t.name, t.shape) for t in tiny_aot.inputs] == [(t.name, t.shape) for t in tiny_jit.inputs]
    assert [(t.name, t.shape) for t in tiny_aot.outputs] == [(t.name, t.shape) for t in tiny_jit.outputs]
    assert tiny_aot.threads == THREADS and tiny_jit.threads == THREADS
    assert tiny_aot.schedule is None and "tiny.plan.json" in tiny_jit.schedule


def test_artifact_runs_bit_identical_to_the_jit(tiny_aot, tiny_jit):
    x = random_input(tiny_aot.inputs[0])
    aot = tiny_aot.run(x)
    jit = tiny_jit.run(x)
    assert len(aot) == len(jit) == len(tiny_aot.outputs)
    for a, j, spec in zip(aot, jit, tiny_aot.outputs):
        assert a.dtype == np.float32 and a.shape == spec.shape and a.flags.c_contiguous
        assert np.any(a != 0)
        assert a.tobytes() == j.tobytes()


def test_jit_matches_the_reference_executor(tiny_jit):
    x = random_input(tiny_jit.inputs[0], seed=3)
    (actual,) = tiny_jit.run(x)
    (expected,) = tiny_jit.run_reference(x)
    scale = np.max(np.abs(expected))
    assert scale > 0
    assert np.max(np.abs(actual - expected)) / scale < 1e-4


def test_default_schedule_and_plan_compute_the_same_function(tiny_jit):
    default = layoutopt.Session.compile(TINY, threads=THREADS)
    assert default.schedule.startswith("default schedule")
    x = random_input(default.inputs[0], seed=5)
    (a,) = default.run(x)
    (b,) = tiny_jit.run(x)
    assert np.allclose(a, b, rtol=1e-4, atol=1e-4 * np.max(np.abs(a)))


def test_inputs_as_array_list_tuple_and_dict(tiny_aot):
    spec = tiny_aot.inputs[0]
    x = random_input(spec)
    (single,) = tiny_aot.run(x)
    (listed,) = tiny_aot.run([x])
    (paired,) = tiny_aot.run((x,))
    named = tiny_aot.run({spec.name: x})
    assert isinstance(named, dict) and list(named) == [t.name for t in tiny_aot.outputs]
    for other in (listed, paired, named[tiny_aot.outputs[0].name]):
        assert other.tobytes() == single.tobytes()


def test_repeated_runs_give_the_same_bits_and_fresh_arrays(tiny_aot):
    x = random_input(tiny_aot.inputs[0])
    (first,) = tiny_aot.run(x)
    (second,) = tiny_aot.run(x)
    assert first.tobytes() == second.tobytes()
    assert not np.shares_memory(first, second)


@pytest.mark.parametrize("kind", ["aot", "jit"])
def test_runs_from_eight_threads_at_once_give_the_single_threaded_bits(kind, tiny_aot, tiny_jit):
    """Runs release the GIL: an artifact's calls overlap (an arena each), a JIT session's take
    turns; either way every call gets the bits it gets alone."""
    session = tiny_aot if kind == "aot" else tiny_jit
    inputs = [random_input(session.inputs[0], seed=seed) for seed in (3, 4)]
    expected = [session.run(x)[0].tobytes() for x in inputs]
    assert expected[0] != expected[1]

    def calls(caller):
        return [session.run(inputs[(caller + run) % 2])[0].tobytes() == expected[(caller + run) % 2]
                for run in range(50)]

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        results = [ok for caller_results in pool.map(calls, range(8)) for ok in caller_results]
    assert len(results) == 400 and all(results)


def test_a_dense_float32_input_is_read_in_place():
    x = np.zeros((1, 3, 8, 8), dtype=np.float32)
    seen = layoutopt._layoutopt._as_input(x, "x", [1, 3, 8, 8])
    assert seen is x
    assert seen.__array_interface__["data"][0] == x.__array_interface__["data"][0]
    readonly = x.copy()
    readonly.flags.writeable = False
    assert layoutopt._layoutopt._as_input(readonly, "x", [1, 3, 8, 8]) is readonly


def test_a_non_contiguous_float32_input_is_copied_once_and_gives_the_same_result(tiny_aot):
    spec = tiny_aot.inputs[0]
    x = random_input(spec)
    # The same values in Fortran order: not C-contiguous, so the run reads a dense copy.
    fortran = np.asfortranarray(x)
    assert not fortran.flags.c_contiguous
    seen = layoutopt._layoutopt._as_input(fortran, spec.name, list(spec.shape))
    assert seen is not fortran and seen.flags.c_contiguous and np.array_equal(seen, x)
    assert tiny_aot.run(fortran)[0].tobytes() == tiny_aot.run(x)[0].tobytes()


def test_an_unaligned_float32_input_is_copied():
    raw = np.zeros(4 * 48 + 1, dtype=np.uint8)
    unaligned = raw[1:].view(np.float32).reshape(1, 3, 4, 4)
    assert not unaligned.flags.aligned
    seen = layoutopt._layoutopt._as_input(unaligned, "x", [1, 3, 4, 4])
    assert seen is not unaligned and seen.flags.aligned


@pytest.mark.parametrize("dtype", [np.float64, np.float16, np.int32, np.int64, np.uint8, ">f4"])
def test_other_dtypes_are_refused_naming_dtype_and_shape(tiny_aot, dtype):
    spec = tiny_aot.inputs[0]
    x = np.zeros(spec.shape, dtype=dtype)
    with pytest.raises(TypeError) as error:
        tiny_aot.run(x)
    message = str(error.value)
    assert "float32" in message and spec.name in message
    assert "[" + ",".join(map(str, spec.shape)) + "]" in message
    assert np.dtype(dtype).str in message or str(np.dtype(dtype)) in message


def test_a_list_of_numbers_is_refused(tiny_aot):
    with pytest.raises(TypeError, match="numpy.ndarray of dtype float32"):
        tiny_aot.run([[1.0, 2.0]])


def test_a_wrong_shape_is_refused_naming_both_shapes(tiny_aot, tiny_jit):
    spec = tiny_aot.inputs[0]
    wrong = list(spec.shape)
    wrong[-1] += 1
    x = np.zeros(wrong, dtype=np.float32)
    for session in (tiny_aot, tiny_jit):
        with pytest.raises(ValueError) as error:
            session.run(x)
        assert "[" + ",".join(map(str, spec.shape)) + "]" in str(error.value)
        assert "[" + ",".join(map(str, wrong)) + "]" in str(error.value)
    with pytest.raises(ValueError, match="must have shape"):
        tiny_aot.run(np.zeros(spec.shape[1:], dtype=np.float32))


def test_wrong_counts_and_names_are_refused(tiny_aot):
    spec = tiny_aot.inputs[0]
    x = random_input(spec)
    with pytest.raises(ValueError, match="takes 1 inputs, got 2"):
        tiny_aot.run([x, x])
    with pytest.raises(ValueError, match="no input 'nope'"):
        tiny_aot.run({spec.name: x, "nope": x})
    with pytest.raises(ValueError, match="is missing"):
        tiny_aot.run({})


def test_run_reference_needs_a_jit_session(tiny_aot):
    with pytest.raises(layoutopt.KernelError, match="Session.compile"):
        tiny_aot.run_reference(random_input(tiny_aot.inputs[0]))


def test_artifact_matches_pytorchs_output_recorded_at_export(tiny_aot):
    """data/onnx/expected.json holds torch's output of tiny-convnet for a fixed input."""
    import json

    from conftest import SOURCE_DIR

    expected = json.loads((SOURCE_DIR / "data" / "onnx" / "expected.json").read_text())["models"]["tiny-convnet"]
    assert expected["input_formula"] == "sin(0.1 * i) for flat index i"
    shape = tuple(expected["input_shape"])
    assert tiny_aot.inputs[0].shape == shape
    x = np.sin(0.1 * np.arange(np.prod(shape), dtype=np.float64)).astype(np.float32).reshape(shape)
    (actual,) = tiny_aot.run(x)
    torch_output = np.array(expected["output"], dtype=np.float32).reshape(actual.shape)
    assert np.max(np.abs(actual - torch_output)) <= 1e-4 * max(1.0, np.max(np.abs(torch_output)))
