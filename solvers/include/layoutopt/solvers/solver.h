#pragma once
// One interface for all solvers so callers (CLI, tests, benchmarks) can swap them by name.
//
//   greedy  each node's cheapest candidate, ignoring edges (TVM's "apply history best")
//   exact   exhaustive branch-and-bound, tiny instances only: ground truth for tests
//   dp      exact variable elimination over a tree decomposition; refuses wide graphs
//   pbqp    PBQP reductions + heuristic + local search + branch-and-bound, with a bound

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "layoutopt/solvers/problem.h"
#include "layoutopt/solvers/solution.h"

namespace layoutopt::solvers {

class Solver {
 public:
  virtual ~Solver() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  /// Throws SolverError when the solver refuses the instance (too large, over budget).
  [[nodiscard]] virtual Solution solve(const Problem& problem, const SolveOptions& options) const = 0;
};

/// Throws SolverError listing the valid names for an unknown one.
[[nodiscard]] std::unique_ptr<Solver> make_solver(std::string_view name);
[[nodiscard]] std::vector<std::string> solver_names();

}  // namespace layoutopt::solvers
