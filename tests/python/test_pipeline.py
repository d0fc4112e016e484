"""compile, plan, tune and optimize from Python: the CLI's library calls with its flags as
keyword arguments, their figures as dicts, and the CLI's refusals to replace files."""

import json
import shutil

import numpy as np
import pytest

import layoutopt
from conftest import THREADS, TINY, random_input


def test_plan_reports_the_figures_the_cli_prints(tmp_path):
    path = tmp_path / "p.json"
    result = layoutopt.plan(TINY, path, model_costs=True, solver="pbqp", threads=THREADS, quiet=True)
    assert result["plan"] == str(path) and path.exists()
    assert result["costs"] == "modelled" and result["solver"] == "pbqp"
    assert result["nodes"] == len(json.loads(path.read_text())["nodes"]) > 0
    assert result["predicted_ms"] == pytest.approx(result["kernel_ms"] + result["transform_ms"])
    assert result["problem_nodes"] > 0 and result["candidates"] >= result["problem_nodes"]


def test_plan_never_replaces_a_file_without_force(tmp_path):
    path = tmp_path / "p.json"
    path.write_text("mine")
    with pytest.raises(layoutopt.Error, match="force=True"):
        layoutopt.plan(TINY, path, model_costs=True, quiet=True)
    assert path.read_text() == "mine"
    layoutopt.plan(TINY, path, model_costs=True, quiet=True, force=True)
    assert json.loads(path.read_text())["nodes"]


def test_plan_needs_measurements_or_model_costs(tmp_path):
    with pytest.raises(layoutopt.Error, match="records= and transforms="):
        layoutopt.plan(TINY, tmp_path / "p.json", quiet=True)
    with pytest.raises(layoutopt.Error, match="folder"):
        layoutopt.plan(TINY, tmp_path / "missing" / "p.json", model_costs=True, quiet=True)


def test_compile_from_python_matches_the_cli_artifact(tmp_path, tiny_plan, tiny_aot):
    folder = tmp_path / "aot"
    result = layoutopt.compile(TINY, folder, plan=tiny_plan, threads=THREADS, quiet=True)
    assert result["steps"] > 0 and result["cpu"] and (folder / "network.so").exists()
    session = layoutopt.Session.load(str(folder))
    x = random_input(session.inputs[0], seed=11)
    assert session.run(x)[0].tobytes() == tiny_aot.run(x)[0].tobytes()
    before = (folder / "weights.bin").read_bytes()
    with pytest.raises(layoutopt.Error, match="force=True"):
        layoutopt.compile(TINY, folder, threads=THREADS, quiet=True)
    assert (folder / "weights.bin").read_bytes() == before


def test_tune_appends_records_and_reports_each_task(tmp_path):
    records = tmp_path / "tune.jsonl"
    result = layoutopt.tune(TINY, records=records, trials=3, threads=THREADS, min_repeat_ms=2, quiet=True)
    lines = records.read_text().splitlines()
    assert result["new_trials"] == len(lines) > 0
    assert result["tasks"] and all(task["name"] for task in result["tasks"])
    assert sum(task["trials"] for task in result["tasks"]) == result["new_trials"]
    assert result["estimated_ms"] > 0 and str(THREADS) in result["target"]
    again = layoutopt.tune(TINY, records=records, trials=2, threads=THREADS, min_repeat_ms=2, quiet=True)
    assert len(records.read_text().splitlines()) == len(lines) + again["new_trials"]  # appended, never rewritten


def test_tune_refuses_a_missing_budget_and_unknown_tasks(tmp_path):
    with pytest.raises(layoutopt.Error, match="give a budget"):
        layoutopt.tune(TINY, records=tmp_path / "r.jsonl", quiet=True)
    with pytest.raises(layoutopt.Error, match="does not exist"):
        layoutopt.tune(TINY, records=tmp_path / "r.jsonl", trials=1, task=999, quiet=True)


def test_optimize_refuses_to_replace_a_plan_before_any_work(tmp_path):
    plan = tmp_path / "plan.json"
    plan.write_text("mine")
    records = tmp_path / "tune.jsonl"
    with pytest.raises(layoutopt.Error, match="force=True"):
        layoutopt.optimize(TINY, output=plan, records=records, transforms=tmp_path / "t.json", quiet=True)
    assert plan.read_text() == "mine" and not records.exists()
    # A bad argument value is a ValueError, as in Python itself (std::invalid_argument).
    with pytest.raises(ValueError, match="unknown budget 'forever'"):
        layoutopt.optimize(TINY, budget="forever", output=tmp_path / "p2.json", records=records,
                           transforms=tmp_path / "t.json", quiet=True)
    assert not records.exists()


def test_optimize_compares_the_variants_and_writes_the_plan(tmp_path, tiny_measurements):
    """Resumed from the suite's measurements (copied: optimize appends to them), so that only
    a second of tuning, the default configs, confirmation and the comparison run."""
    records, transforms = tmp_path / "tune.jsonl", tmp_path / "transforms.json"
    shutil.copy(tiny_measurements[0], records)
    shutil.copy(tiny_measurements[1], transforms)
    plan = tmp_path / "plan.json"
    result = layoutopt.optimize(TINY, time_budget=1, calibrate_rounds=0, threads=THREADS, records=records,
                                transforms=transforms, output=plan, quiet=True)
    names = [row["name"] for row in result["variants"]]
    assert names[0] == "default" and "history best" in names and "graph tuned (DP)" in names
    assert result["plan_variant"] in names and result["plan"] == str(plan) and plan.exists()
    for i, row in enumerate(result["variants"]):
        assert row["median_ms"] > 0 and row["round_min_ms"] <= row["median_ms"] <= row["round_max_ms"]
        assert row["rounds"] > 0 and row["runs"] >= row["rounds"] and row["predicted_ms"] > 0
        # A row that runs an earlier row's plan names it: only rows before it can be named.
        assert row["same_plan_as"] is None or row["same_plan_as"] in names[:i]
    assert result["variants"][0]["same_plan_as"] is None
    assert set(result["phase_seconds"]) >= {"tuning", "comparison"}
    assert result["threads"] == THREADS and result["records"] == str(records)
    session = layoutopt.Session.compile(TINY, plan=plan, threads=THREADS)  # the plan written compiles
    assert session.run(np.ones(session.inputs[0].shape, np.float32))[0].shape == session.outputs[0].shape
