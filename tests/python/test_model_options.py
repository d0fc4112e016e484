"""batch= and seed= follow the CLI's rule for --batch and --seed (pipeline/model_options.h):
a batch other than the one a file fixes raises layoutopt.GraphError naming the keyword and
the file's batch; a keyword without effect on the model is accepted with a UserWarning."""

import warnings

import pytest

import layoutopt
from conftest import SOURCE_DIR, TINY

DYNAMIC = str(SOURCE_DIR / "data" / "onnx" / "ops" / "dynamic_batch-opset14.onnx")


def plan(tmp_path, model=TINY, **options):
    """Plans on modelled costs (quick): loads the model as every pipeline call does."""
    return layoutopt.plan(model, tmp_path / "p.json", model_costs=True, quiet=True, force=True, **options)


def test_a_batch_the_file_fixes_otherwise_is_refused(tmp_path):
    with pytest.raises(layoutopt.GraphError, match=r"batch= 4 cannot apply: .*fixes its batch at 1"):
        plan(tmp_path, batch=4)
    assert not (tmp_path / "p.json").exists()


def test_options_without_effect_warn(tmp_path):
    with pytest.warns(UserWarning, match=r"seed= 5 has no effect.*weights are all in the file"):
        plan(tmp_path, seed=5)
    with pytest.warns(UserWarning, match=r"batch= 1 has no effect.*fixes its batch at 1"):
        plan(tmp_path, batch=1)


def test_options_that_apply_stay_silent(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plan(tmp_path, DYNAMIC, batch=2)
        plan(tmp_path)


def test_session_compile_follows_the_same_rule():
    with pytest.raises(layoutopt.GraphError, match=r"batch= 4 cannot apply: .*fixes its batch at 1"):
        layoutopt.Session.compile(TINY, batch=4, threads=1)
    with pytest.warns(UserWarning, match=r"seed= 5 has no effect"):
        layoutopt.Session.compile(TINY, seed=5, threads=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        session = layoutopt.Session.compile(DYNAMIC, batch=2, threads=1)
    assert session.inputs[0].shape[0] == 2
