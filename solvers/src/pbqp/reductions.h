#pragma once
// The exact PBQP reductions (internal), after Scholz & Eckstein and LLVM's PBQP allocator:
//
//   R0   degree 0: the node's cheapest candidate is final; its cost becomes a constant.
//   RI   degree 1: fold min_i (c_x[i] + M[i][j]) into the neighbour's cost vector.
//   RII  degree 2: fold min_i (c_x[i] + A[i][j] + B[i][k]) into a y-z edge (merged with an
//        existing one), so every cost involving x is still counted exactly once.
//
// Each rule preserves the optimum, so after reduce() the optimum of the remaining core plus
// trace.constant() equals the optimum of the original graph. fix_node() is the non-exact
// step (RN, or a branching decision): it commits a candidate and folds its edges away.

#include <vector>

#include "pbqp/pbqp_graph.h"
#include "pbqp/reduction_trace.h"

namespace layoutopt::solvers::pbqp {

struct ReductionCounts {
  int r0 = 0;
  int r1 = 0;
  int r2 = 0;
};

/// Applies R0, RI and RII until every remaining node has degree >= 3.
ReductionCounts reduce(PbqpGraph& graph, ReductionTrace& trace);

/// reduce() for a graph in which only the nodes in `touched` may have degree <= 2 (e.g. the
/// neighbours of a node fix_node() just removed from a reduced graph). Applies the same
/// reductions in the same order as reduce() would, without scanning the whole graph: RN
/// calls it after every fix, and the full scans made RN quadratic in the core size.
ReductionCounts reduce_around(PbqpGraph& graph, ReductionTrace& trace, std::vector<int> touched);

/// Commits node v to `candidate`: adds its edge rows to the neighbours' costs, adds its own
/// cost to the trace constant, and removes it.
void fix_node(PbqpGraph& graph, int v, int candidate, ReductionTrace& trace);

}  // namespace layoutopt::solvers::pbqp
