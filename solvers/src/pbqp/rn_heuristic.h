#pragma once
// The heuristic RN step for the irreducible core (internal). When no exact reduction
// applies, commit one node: the one with the most edges (committing it turns the most
// neighbours into cheap RI/RII cases), to Scholz's "local minimum" candidate - the one that
// minimises its own cost plus, for each neighbour, the best edge + neighbour cost reachable.
// Unlike TVM's greedy RN, ties prefer candidates that leave every neighbour feasible.

#include "pbqp/pbqp_graph.h"
#include "pbqp/reduction_trace.h"

namespace layoutopt::solvers::pbqp {

[[nodiscard]] int select_rn_node(const PbqpGraph& graph);
[[nodiscard]] int select_rn_candidate(const PbqpGraph& graph, int v);

/// Reduces the whole graph with R0/RI/RII and RN, then back-propagates: a complete
/// heuristic assignment for the graph's nodes, written into `assignment` (Problem ids).
void solve_by_reduction(PbqpGraph graph, Assignment& assignment);

}  // namespace layoutopt::solvers::pbqp
