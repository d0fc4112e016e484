#pragma once
// The "fusion" primal heuristic (internal): an exact solve restricted to a few candidates
// per node.
//
// Each node's candidates are ranked twice: by the dual's reparametrised costs c'_v (when the
// dual is tight the optimum only uses candidates of zero reduced cost, and in practice ones
// near the top) and by the node's own costs (which still point the right way where the LP
// relaxation is loose and c'_v ties or misleads). Keeping every node's few best of each
// ranking plus the incumbent's choice, and solving that restriction exactly by variable
// elimination, moves many nodes jointly (local search moves one or two) and can never do
// worse than the incumbent. The number kept per node is the largest whose elimination
// work (min-plus terms) fits the budget.

#include "pbqp/dual_bound.h"
#include "pbqp/pbqp_graph.h"

namespace layoutopt::solvers::pbqp {

/// Replaces `assignment` (Problem ids) on the alive nodes of `graph` by the best assignment
/// within the restriction when that is cheaper; returns whether it was.
bool fuse_with_dual(const PbqpGraph& graph, const DualBound& dual, double max_work, Assignment& assignment);

/// The dual-guided incumbent: the better of `assignment` and the dual's rounding (polished
/// by local search), then fused with both rankings' favourites and polished again.
/// Writes it into `assignment` and returns its cost on the alive part of `graph`.
Cost improve_with_dual(const PbqpGraph& graph, const DualBound& dual, double max_work, Assignment& assignment);

}  // namespace layoutopt::solvers::pbqp
