// greedy: every node takes its cheapest candidate, edge costs ignored. This is what TVM's
// "apply history best" does; it is the baseline the other solvers are measured against.
//
// Forbidden pairs are still respected: nodes are decided in problem order, and a node only
// considers candidates that no already-decided neighbour forbids. Layout problems list the
// real operators before their auxiliary nodes ("which layouts of a tensor are materialized"),
// so the operators keep their fastest kernels and the auxiliary nodes then follow them,
// which is exactly "insert transforms wherever neighbours disagree".

#include <limits>

#include "builtin_solvers.h"
#include "stopwatch.h"

namespace layoutopt::solvers {

namespace {

/// True when no decided neighbour forbids candidate `c` of `node`.
bool allowed(const Problem& problem, NodeId node, int c, const Assignment& assignment) {
  for (int e : problem.incident(node)) {
    const Edge& edge = problem.edges()[static_cast<size_t>(e)];
    const bool from_side = edge.from == node;
    const NodeId other = from_side ? edge.to : edge.from;
    const int chosen = assignment[static_cast<size_t>(other)];
    if (chosen < 0) continue;
    const Cost cost = from_side ? (*edge.costs)(c, chosen) : (*edge.costs)(chosen, c);
    if (!is_finite(cost)) return false;
  }
  return true;
}

class GreedySolver final : public Solver {
 public:
  [[nodiscard]] std::string_view name() const override { return "greedy"; }

  [[nodiscard]] Solution solve(const Problem& problem, const SolveOptions& /*options*/) const override {
    const Stopwatch clock;
    Solution solution;
    solution.assignment.assign(problem.node_count(), -1);
    for (NodeId v = 0; v < static_cast<NodeId>(problem.node_count()); ++v) {
      const Vector& costs = problem.node(v).costs;
      int best = 0;  // when everything is forbidden the cheapest stays, and the cost says infeasible
      Cost best_cost = std::numeric_limits<Cost>::infinity();
      for (int c = 0; c < static_cast<int>(costs.size()); ++c)
        if (costs[c] < best_cost && allowed(problem, v, c, solution.assignment)) {
          best = c;
          best_cost = costs[c];
        }
      if (!is_finite(best_cost)) costs.minCoeff(&best);
      solution.assignment[static_cast<size_t>(v)] = best;
    }
    finish_solution(problem, solution);
    solution.seconds = clock.seconds();
    return solution;
  }
};

}  // namespace

std::unique_ptr<Solver> make_greedy_solver() { return std::make_unique<GreedySolver>(); }

}  // namespace layoutopt::solvers
