#pragma once
// Exact solution of a narrow PBQP component by variable elimination (internal). Only open
// (finite-cost) candidates take part, so once branch-and-bound has pruned most candidates a
// clique that was far too wide for dp becomes cheap to finish exactly. The same machinery
// solves a problem restricted to a few candidates per node: the "fusion" heuristic.

#include <optional>
#include <vector>

#include "pbqp/pbqp_graph.h"

namespace layoutopt::solvers::pbqp {

/// If eliminating the alive part of `graph` needs at most `max_entries` doubles at once and
/// at most `max_work` min-plus terms (dp::EliminationPlan), solves it exactly, writes the
/// choices into `assignment` (Problem ids) and returns the optimum (kInfinity when
/// infeasible). nullopt when it is too wide.
std::optional<Cost> solve_by_elimination(const PbqpGraph& graph, double max_entries, double max_work,
                                         Assignment& assignment);

/// Per local node id, the candidates a restricted solve may use.
using CandidateSets = std::vector<std::vector<int>>;

/// Like solve_by_elimination, but only over the finite candidates in `allowed` (indexed by
/// local id): the optimum of that restriction, which bounds the true optimum from above.
std::optional<Cost> solve_restricted(const PbqpGraph& graph, const CandidateSets& allowed, double max_work,
                                     Assignment& assignment);

/// Whether solve_restricted would take the restriction (its plan fits `max_work`), found by
/// planning alone: no table is built.
bool restriction_fits(const PbqpGraph& graph, const CandidateSets& allowed, double max_work);

}  // namespace layoutopt::solvers::pbqp
