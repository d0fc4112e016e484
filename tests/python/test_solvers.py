"""The cost-problem solvers from Python: problems from lists and NumPy arrays, instance
files, and the solvers' answers checked against each other (dp and exact agree, pbqp never
beats the optimum, greedy ignores edges)."""

import math

import numpy as np
import pytest

import layoutopt

STRUCTURES = ["chain", "residual", "inception", "dense", "random"]


def small_instance(structure, seed):
    return layoutopt.generate_instance(structure, nodes=7, candidates=3, seed=seed, forbidden_probability=0.1)


@pytest.mark.parametrize("structure", STRUCTURES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_dp_and_exact_agree_and_pbqp_never_beats_them(structure, seed):
    problem = small_instance(structure, seed)
    exact = layoutopt.solve(problem, "exact")
    dp = layoutopt.solve(problem, "dp")
    pbqp = layoutopt.solve(problem, "pbqp", time_limit=math.inf, max_search_nodes=100000)
    assert exact.optimal and dp.optimal
    assert dp.cost == pytest.approx(exact.cost, rel=1e-12, abs=1e-12)
    assert problem.evaluate(dp.assignment) == pytest.approx(dp.cost)
    assert pbqp.cost >= dp.cost - 1e-9 * max(1.0, abs(dp.cost))
    if pbqp.lower_bound is not None:
        assert pbqp.lower_bound <= dp.cost + 1e-9 * max(1.0, abs(dp.cost))


def test_a_problem_from_lists_and_arrays_with_forbidden_choices():
    problem = layoutopt.Problem()
    a = problem.add_node("a", [1.0, 5.0], labels=["NCHW8c", "NCHW16c"])
    b = problem.add_node("b", np.array([2.0, 0.5]))
    c = problem.add_node("c", [0.0, 0.0, 3.0])
    assert (a, b, c) == (0, 1, 2)
    problem.add_edge("a", "b", [[0.0, math.inf], [0.3, 0.0]])
    problem.add_edge(b, c, np.array([[0.0, 1.0, 0.0], [math.inf, math.inf, 10.0]]))
    assert problem.node_count == 3 and problem.edge_count == 2
    assert problem.node_names == ["a", "b", "c"]
    assert list(problem.node_costs("b")) == [2.0, 0.5]
    # a=0 forbids b=1; b=1 forbids c=0 and c=1: the optimum is a=0, b=0, c=0 (1 + 2 + 0).
    for solver in ("dp", "exact", "pbqp"):
        solution = layoutopt.solve(problem, solver)
        assert solution.assignment == [0, 0, 0], solver
        assert solution.cost == pytest.approx(3.0)
        assert solution.feasible and solution.solver == solver
        assert solution.assignment_by_name == {"a": 0, "b": 0, "c": 0}
    greedy = layoutopt.solve(problem, "greedy")
    assert greedy.cost >= 3.0 and problem.evaluate(greedy.assignment) == greedy.cost
    assert problem.evaluate([0, 1, 0]) == math.inf


def test_an_infeasible_problem():
    problem = layoutopt.Problem()
    problem.add_node("a", [0.0])
    problem.add_node("b", [0.0])
    problem.add_edge("a", "b", [[math.inf]])
    solution = layoutopt.solve(problem, "dp")
    assert not solution.feasible and solution.cost == math.inf


def test_instance_files_round_trip_and_are_never_replaced_silently(tmp_path):
    problem = small_instance("residual", 4)
    path = tmp_path / "instance.json"
    layoutopt.save_instance(problem, path)
    loaded = layoutopt.load_instance(path)
    assert loaded.node_names == problem.node_names
    for name in problem.node_names:
        assert np.array_equal(loaded.node_costs(name), problem.node_costs(name))
    assert layoutopt.solve(loaded, "dp").cost == layoutopt.solve(problem, "dp").cost
    before = path.read_bytes()
    with pytest.raises(ValueError, match="overwrite=True"):
        layoutopt.save_instance(small_instance("chain", 9), path)
    assert path.read_bytes() == before
    layoutopt.save_instance(small_instance("chain", 9), path, overwrite=True)
    assert path.read_bytes() != before


def test_bad_problems_raise_solver_errors(tmp_path):
    problem = layoutopt.Problem()
    problem.add_node("a", [1.0, 2.0])
    problem.add_node("b", [1.0])
    with pytest.raises(layoutopt.SolverError):
        problem.add_node("a", [1.0])  # duplicate name
    with pytest.raises(layoutopt.SolverError):
        problem.add_node("nan", [math.nan])
    with pytest.raises(layoutopt.SolverError):
        problem.add_node("empty", [])
    with pytest.raises(layoutopt.SolverError):
        problem.add_edge("a", "b", [[0.0, 0.0]])  # 1x2 where 2x1 is needed
    with pytest.raises(layoutopt.SolverError, match="nope"):
        problem.add_edge("a", "nope", [[0.0], [0.0]])
    with pytest.raises(IndexError):
        problem.add_edge(0, 7, [[0.0], [0.0]])
    with pytest.raises(layoutopt.SolverError) as error:
        layoutopt.solve(problem, "simplex")
    assert "pbqp" in str(error.value) and "dp" in str(error.value)
    broken = tmp_path / "broken.json"
    broken.write_text('{"nodes": [{"name": "a"}]}')
    with pytest.raises(layoutopt.SolverError, match="broken.json"):
        layoutopt.load_instance(broken)
    with pytest.raises(layoutopt.SolverError):
        layoutopt.generate_instance("spiral")


def test_solver_names():
    assert {"dp", "pbqp", "exact", "greedy", "toulbar2"} <= set(layoutopt.solver_names())
