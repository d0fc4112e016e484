// greedy: every node takes its cheapest candidate, edges ignored. This is what TVM's
// "apply history best" does; it is the baseline the other solvers are measured against.

#include "builtin_solvers.h"
#include "stopwatch.h"

namespace layoutopt::solvers {

namespace {

class GreedySolver final : public Solver {
 public:
  [[nodiscard]] std::string_view name() const override { return "greedy"; }

  [[nodiscard]] Solution solve(const Problem& problem, const SolveOptions& /*options*/) const override {
    const Stopwatch clock;
    Solution solution;
    for (const Node& node : problem.nodes()) {
      Eigen::Index best = 0;
      node.costs.minCoeff(&best);
      solution.assignment.push_back(static_cast<int>(best));
    }
    finish_solution(problem, solution);
    solution.seconds = clock.seconds();
    return solution;
  }
};

}  // namespace

std::unique_ptr<Solver> make_greedy_solver() { return std::make_unique<GreedySolver>(); }

}  // namespace layoutopt::solvers
