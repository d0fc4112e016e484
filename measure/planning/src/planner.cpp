#include "layoutopt/planning/planner.h"

#include <array>
#include <stdexcept>
#include <utility>

#include "layoutopt/planning/layout_problem.h"
#include "layoutopt/solvers/candidate_reduction.h"
#include "layoutopt/solvers/error.h"
#include "layoutopt/solvers/solver.h"

namespace layoutopt::planning {

namespace {

template <class Enum, size_t N>
Enum parse_spelling(std::string_view text, const std::array<std::pair<Enum, const char*>, N>& spellings,
                    const char* what) {
  for (const auto& [value, spelling] : spellings)
    if (text == spelling) return value;
  std::string allowed;
  for (const auto& entry : spellings) allowed += (allowed.empty() ? "" : ", ") + std::string(entry.second);
  throw std::invalid_argument("unknown " + std::string(what) + " '" + std::string(text) + "' (expected one of: " +
                              allowed + ")");
}

template <class Enum, size_t N>
std::string spelling_of(Enum value, const std::array<std::pair<Enum, const char*>, N>& spellings) {
  for (const auto& [known, spelling] : spellings)
    if (known == value) return spelling;
  throw std::logic_error("an enumerator without a spelling");
}

constexpr std::array<std::pair<SolverChoice, const char*>, 3> kSolverSpellings{
    {{SolverChoice::automatic, "auto"}, {SolverChoice::dp, "dp"}, {SolverChoice::pbqp, "pbqp"}}};
constexpr std::array<std::pair<CostKind, const char*>, 2> kCostSpellings{
    {{CostKind::measured, "measured"}, {CostKind::modelled, "modelled"}}};

struct Solved {
  solvers::Solution solution;
  std::string solver;
  std::string fallback_reason;
};

Solved solve(const solvers::Problem& problem, const PlannerOptions& options) {
  if (options.solver != SolverChoice::automatic) {
    const std::string name = to_string(options.solver);
    return {solvers::make_solver(name)->solve(problem, options.solve), name, ""};
  }
  // DP, and PBQP when DP refuses, on one reduced problem: each would drop the dominated
  // candidates again on its own.
  solvers::SolveOptions reduced_options = options.solve;
  reduced_options.drop_dominated = false;
  Solved solved{{}, "dp", ""};
  solved.solution = solvers::solve_without_dominated(problem, options.solve, [&](const solvers::Problem& reduced) {
    try {
      return solvers::make_solver("dp")->solve(reduced, reduced_options);
    } catch (const solvers::SolverError& refusal) {
      solved.solver = "pbqp";
      solved.fallback_reason = refusal.what();
      return solvers::make_solver("pbqp")->solve(reduced, reduced_options);
    }
  });
  return solved;
}

}  // namespace

SolverChoice parse_solver(std::string_view text) { return parse_spelling(text, kSolverSpellings, "solver"); }
CostKind parse_cost_kind(std::string_view text) { return parse_spelling(text, kCostSpellings, "cost kind"); }
std::string to_string(SolverChoice solver) { return spelling_of(solver, kSolverSpellings); }
std::string to_string(CostKind costs) { return spelling_of(costs, kCostSpellings); }

PlanResult plan_layouts(const graph::Graph& graph, const CostSource& costs, const PlannerOptions& options) {
  const LayoutProblem problem(graph, costs);
  Solved solved = solve(problem.problem(), options);
  if (!solved.solution.feasible)
    throw std::runtime_error("solver " + solved.solver + " found no finite-cost layout assignment for '" +
                             graph.name() + "'");
  const LayoutAssignment assignment = problem.decode(solved.solution.assignment, costs);
  Plan plan = make_plan(graph, assignment, {options.target, to_string(options.costs), solved.solver});
  return {std::move(plan), std::move(solved.solution), solved.solver, solved.fallback_reason,
          problem.problem().node_count(), problem.offered_candidates()};
}

}  // namespace layoutopt::planning
