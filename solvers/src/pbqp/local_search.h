#pragma once
// Local search that polishes a complete assignment (internal): iterated conditional modes
// (move one node to its best candidate given its neighbours, using the full cost change),
// then pair moves along edges (re-choose both ends jointly), repeated until neither helps.
// Works from infeasible starts too: any finite choice beats an infinite one.

#include "pbqp/pbqp_graph.h"

namespace layoutopt::solvers::pbqp {

/// Improves `assignment` (indexed by Problem node id) on the alive nodes of `graph`.
/// Returns the number of moves made.
int improve_locally(const PbqpGraph& graph, Assignment& assignment, int max_rounds = 20);

/// Cost of `assignment` restricted to the alive nodes and edges of `graph`.
[[nodiscard]] Cost graph_cost(const PbqpGraph& graph, const Assignment& assignment);

}  // namespace layoutopt::solvers::pbqp
