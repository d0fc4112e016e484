#pragma once
// The "fusion" primal heuristic (internal): an exact solve restricted to a few candidates
// per node.
//
// The dual's reparametrised costs c'_v rank each node's candidates; when the dual is tight
// the optimum only uses candidates of zero reduced cost, and in practice it uses candidates
// near the top of the ranking. Keeping every node's few best-ranked candidates plus the
// incumbent's choice, and solving that restriction exactly by variable elimination, moves
// many nodes jointly (local search moves one or two) and can never do worse than the
// incumbent. The number kept per node is the largest whose elimination tables fit.

#include "pbqp/dual_bound.h"
#include "pbqp/pbqp_graph.h"

namespace layoutopt::solvers::pbqp {

/// Replaces `assignment` (Problem ids) on the alive nodes of `graph` by the best assignment
/// within the restriction when that is cheaper; returns whether it was.
bool fuse_with_dual(const PbqpGraph& graph, const DualBound& dual, double max_entries, Assignment& assignment);

/// The dual-guided incumbent: the better of `assignment` and the dual's rounding (polished
/// by local search), then fused with the dual's favourites and polished again.
/// Writes it into `assignment` and returns its cost on the alive part of `graph`.
Cost improve_with_dual(const PbqpGraph& graph, const DualBound& dual, double max_entries, Assignment& assignment);

}  // namespace layoutopt::solvers::pbqp
