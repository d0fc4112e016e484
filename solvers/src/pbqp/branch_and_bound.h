#pragma once
// Exact PBQP search over the decisions that the reductions cannot make (internal).
//
// solve(): reduce exactly (R0/RI/RII), split what remains into connected components and
// bound each one with the dual (DualBound). A component is then solved on its own, with the
// budget left after the other components' bounds ("AND/OR" search: independent parts are
// never multiplied together). Within a component:
//   0. if its elimination tables are small, solve it exactly by variable elimination;
//   1. round the dual and polish it with local search: an incumbent;
//   2. stop if incumbent - bound closes the gap;
//   3. drop candidates whose reduced cost proves them useless (bound + reduced >= budget),
//      fix nodes left with a single candidate, and re-reduce; try elimination again
//      on the pruned candidates;
//   4. otherwise branch on the busiest node, candidates in reduced-cost order, each child
//      being solve() again (fixing a node re-enables RI/RII and often splits the graph).
// The search is anytime: at the deadline, or after max_nodes search nodes, it stops and
// reports it did not complete.

#include <cstdint>
#include <optional>

#include "pbqp/pbqp_graph.h"
#include "stopwatch.h"

namespace layoutopt::solvers::pbqp {

class DualBound;

class BranchAndBound {
 public:
  /// `max_nodes` 0: only the deadline limits the search.
  BranchAndBound(const Deadline& deadline, uint64_t max_nodes) : deadline_(deadline), max_nodes_(max_nodes) {}

  /// Looks for an assignment of the graph's alive nodes costing less than `budget`. If one
  /// exists (and the search completes) returns the optimum and writes it into `assignment`
  /// (Problem ids); nullopt when nothing is cheaper than the budget.
  std::optional<Cost> solve(PbqpGraph graph, Cost budget, Assignment& assignment);

  /// False when the deadline interrupted the search: results are then not proven.
  [[nodiscard]] bool complete() const { return complete_; }
  [[nodiscard]] uint64_t search_nodes() const { return search_nodes_; }
  /// The bound computed at the root (reduction constant + component dual bounds).
  [[nodiscard]] Cost root_bound() const { return root_bound_; }

 private:
  struct Part;
  std::optional<Cost> solve_component(PbqpGraph& graph, DualBound& dual, Cost budget, Assignment& assignment);
  /// Outer nullopt: too wide for elimination. Otherwise the exact answer under `budget`.
  std::optional<std::optional<Cost>> finish_exactly(const PbqpGraph& graph, Cost budget, Assignment& assignment);
  std::optional<Cost> branch(const PbqpGraph& graph, const DualBound& dual, Cost limit, Assignment& best);
  /// True once the deadline or the node limit is reached; the search is then incomplete.
  bool out_of_budget();

  const Deadline& deadline_;
  uint64_t max_nodes_;
  bool complete_ = true;
  uint64_t search_nodes_ = 0;
  int depth_ = 0;
  Cost root_bound_ = -kInfinity;
};

/// Budget minus a relative tolerance: bounds within rounding noise of the budget prune.
[[nodiscard]] Cost prune_threshold(Cost budget);

}  // namespace layoutopt::solvers::pbqp
