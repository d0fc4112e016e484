#include "layoutopt/planning/planner.h"

#include <stdexcept>
#include <utility>

#include "layoutopt/planning/layout_problem.h"
#include "layoutopt/solvers/candidate_reduction.h"
#include "layoutopt/solvers/error.h"
#include "layoutopt/solvers/solver.h"

namespace layoutopt::planning {

namespace {

struct Solved {
  solvers::Solution solution;
  SolverChoice solver;
  std::string fallback_reason;
};

Solved solve(const solvers::Problem& problem, const PlannerOptions& options) {
  if (options.solver != SolverChoice::automatic)
    return {solvers::make_solver(to_string(options.solver))->solve(problem, options.solve), options.solver, ""};
  // DP, and PBQP when DP refuses, on one reduced problem: each would drop the dominated
  // candidates again on its own.
  solvers::SolveOptions reduced_options = options.solve;
  reduced_options.drop_dominated = false;
  Solved solved{{}, SolverChoice::dp, ""};
  solved.solution = solvers::solve_without_dominated(problem, options.solve, [&](const solvers::Problem& reduced) {
    try {
      return solvers::make_solver("dp")->solve(reduced, reduced_options);
    } catch (const solvers::SolverError& refusal) {
      solved.solver = SolverChoice::pbqp;
      solved.fallback_reason = refusal.what();
      return solvers::make_solver("pbqp")->solve(reduced, reduced_options);
    }
  });
  return solved;
}

}  // namespace

PlanResult plan_layouts(const graph::Graph& graph, const CostSource& costs, const PlannerOptions& options) {
  const LayoutProblem problem(graph, costs);
  Solved solved = solve(problem.problem(), options);
  if (!solved.solution.feasible)
    throw std::runtime_error("solver " + to_string(solved.solver) + " found no finite-cost layout assignment for '" +
                             graph.name() + "'");
  const LayoutAssignment assignment = problem.decode(solved.solution.assignment, costs);
  Plan plan = make_plan(graph, assignment, {options.target, options.costs, solved.solver});
  return {std::move(plan), std::move(solved.solution), solved.solver, solved.fallback_reason,
          problem.problem().node_count(), problem.offered_candidates()};
}

}  // namespace layoutopt::planning
