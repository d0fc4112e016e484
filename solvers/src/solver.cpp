#include "layoutopt/solvers/solver.h"

#include "builtin_solvers.h"
#include "layoutopt/solvers/candidate_reduction.h"
#include "layoutopt/solvers/error.h"
#include "stopwatch.h"

namespace layoutopt::solvers {

namespace {

struct Entry {
  const char* name;
  std::unique_ptr<Solver> (*make)();
};

constexpr Entry kSolvers[] = {
    {"dp", make_dp_solver},
    {"pbqp", make_pbqp_solver},
    {"exact", make_exact_solver},
    {"greedy", make_greedy_solver},
    {"toulbar2", make_toulbar2_solver},
};

}  // namespace

std::unique_ptr<Solver> make_solver(std::string_view name) {
  for (const Entry& entry : kSolvers)
    if (name == entry.name) return entry.make();
  std::string known;
  for (const Entry& entry : kSolvers) known += (known.empty() ? "" : ", ") + std::string(entry.name);
  throw SolverError("unknown solver '" + std::string(name) + "' (expected one of: " + known + ")");
}

std::vector<std::string> solver_names() {
  std::vector<std::string> names;
  for (const Entry& entry : kSolvers) names.emplace_back(entry.name);
  return names;
}

void finish_solution(const Problem& problem, Solution& solution) {
  solution.cost = problem.evaluate(solution.assignment);
  solution.feasible = is_finite(solution.cost);
}

Solution solve_without_dominated(const Problem& problem, const SolveOptions& options,
                                 const std::function<Solution(const Problem&)>& solve) {
  if (!options.drop_dominated) return solve(problem);
  const Stopwatch clock;
  const CandidateReduction reduction = eliminate_dominated_candidates(problem);
  const double reduction_seconds = clock.seconds();
  Solution solution = solve(reduction.reduced);
  solution.assignment = reduction.expand(solution.assignment);
  finish_solution(problem, solution);
  // The reduced problem sums the same terms in another order (folded edges): a proven
  // optimum's bound is its cost here, not a value a rounding error away.
  if (solution.optimal) solution.lower_bound = solution.cost;
  solution.seconds = clock.seconds();
  solution.stats["removed_candidates"] = static_cast<double>(reduction.removed_candidates());
  solution.stats["ms_dominance"] = reduction_seconds * 1e3;
  return solution;
}

}  // namespace layoutopt::solvers
