// pbqp: reductions R0/RI/RII + RN heuristic + local search for a fast incumbent, then
// branch-and-bound with dual bounds (pbqp/branch_and_bound.h) to improve and prove it.
// Every answer carries a lower bound; without a completed search it is the root dual bound.

#include <cmath>

#include "builtin_solvers.h"
#include "pbqp/branch_and_bound.h"
#include "pbqp/dual_bound.h"
#include "pbqp/local_search.h"
#include "pbqp/reductions.h"
#include "pbqp/rn_heuristic.h"
#include "stopwatch.h"

namespace layoutopt::solvers {

namespace {

using pbqp::PbqpGraph;

// Size of the irreducible core and how it was reached, for the stats.
void describe_reductions(const PbqpGraph& graph, Solution& solution) {
  PbqpGraph core = graph;
  pbqp::ReductionTrace trace;
  const pbqp::ReductionCounts counts = pbqp::reduce(core, trace);
  solution.stats["r0"] = counts.r0;
  solution.stats["r1"] = counts.r1;
  solution.stats["r2"] = counts.r2;
  solution.stats["core_nodes"] = core.alive_count();
}

// Root bound without search: reduce exactly, then bound the core with the dual.
Cost root_bound(const PbqpGraph& graph, const Deadline& deadline, Assignment& rounded) {
  PbqpGraph core = graph;
  pbqp::ReductionTrace trace;
  pbqp::reduce(core, trace);
  pbqp::DualBound dual(core);
  const Cost bound = trace.constant() + dual.run(200, kInfinity, deadline);
  dual.round(rounded);
  trace.back_propagate(rounded);
  return bound;
}

class PbqpSolver final : public Solver {
 public:
  [[nodiscard]] std::string_view name() const override { return "pbqp"; }

  [[nodiscard]] Solution solve(const Problem& problem, const SolveOptions& options) const override {
    const Stopwatch clock;
    const Deadline deadline(options.time_limit_seconds);
    const PbqpGraph graph(problem);
    Solution solution;
    solution.assignment.assign(problem.node_count(), 0);
    pbqp::solve_by_reduction(graph, solution.assignment);
    pbqp::improve_locally(graph, solution.assignment);
    finish_solution(problem, solution);
    solution.stats["heuristic_cost"] = solution.cost;
    describe_reductions(graph, solution);
    if (options.branch_and_bound)
      search(problem, graph, deadline, solution);
    else
      bound_only(problem, graph, deadline, solution);
    solution.seconds = clock.seconds();
    return solution;
  }

 private:
  static void search(const Problem& problem, const PbqpGraph& graph, const Deadline& deadline, Solution& solution) {
    pbqp::BranchAndBound search(deadline);
    Assignment better = solution.assignment;
    if (search.solve(graph, solution.cost, better)) {
      solution.assignment = std::move(better);
      finish_solution(problem, solution);
    }
    solution.optimal = search.complete();
    solution.lower_bound = solution.optimal ? solution.cost : search.root_bound();
    solution.stats["bb_nodes"] = static_cast<double>(search.search_nodes());
    if (std::isfinite(search.root_bound())) solution.stats["root_bound"] = search.root_bound();
  }

  static void bound_only(const Problem& problem, const PbqpGraph& graph, const Deadline& deadline,
                         Solution& solution) {
    Assignment rounded = solution.assignment;
    solution.lower_bound = root_bound(graph, deadline, rounded);
    pbqp::improve_locally(graph, rounded);
    if (problem.evaluate(rounded) < solution.cost) {
      solution.assignment = std::move(rounded);
      finish_solution(problem, solution);
    }
    // Proven when the bound meets the cost (an infinite bound proves infeasibility).
    const Cost bound = *solution.lower_bound;
    solution.optimal = !(solution.cost > bound + 1e-9 * (1.0 + std::abs(bound)));
  }
};

}  // namespace

std::unique_ptr<Solver> make_pbqp_solver() { return std::make_unique<PbqpSolver>(); }

}  // namespace layoutopt::solvers
