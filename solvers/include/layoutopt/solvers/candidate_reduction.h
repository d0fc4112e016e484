#pragma once
// Optimum-preserving preprocessing (dead-end elimination): drop every candidate b of a node
// for which another candidate a is never worse, whatever the neighbours choose, by
// Goldstein's criterion  c(a) - c(b) + sum over edges of max_j [C(a, j) - C(b, j)] <= 0
// (j over the neighbour's remaining candidates), repeated until nothing changes. Identical
// candidates merge into the first. It subsumes "the cheapest candidate per (input layout,
// output layout)" without knowing layouts. dp and pbqp run it first unless
// SolveOptions::drop_dominated is off.

#include <functional>
#include <vector>

#include "layoutopt/solvers/problem.h"
#include "layoutopt/solvers/solution.h"

namespace layoutopt::solvers {

struct CandidateReduction {
  /// The kept candidates, same nodes and names. Every edge at a node left with one candidate
  /// is folded into the other end's costs, so each assignment costs what it costs expanded.
  Problem reduced;
  /// kept[node][i]: the original candidate index of reduced candidate i.
  std::vector<std::vector<int>> kept;
  std::vector<int> original_candidates;  ///< per node, before reduction

  /// Maps an assignment of `reduced` back to the original problem.
  [[nodiscard]] Assignment expand(const Assignment& reduced_assignment) const;
  [[nodiscard]] size_t removed_candidates() const;
};

[[nodiscard]] CandidateReduction eliminate_dominated_candidates(const Problem& problem);

/// Runs `solve` on `problem` without its dominated candidates (when options.drop_dominated)
/// and maps the answer back: the assignment indexes the original candidates, the time
/// includes the reduction, and stats gain removed_candidates and ms_dominance. dp and pbqp
/// solve through it; a caller trying several solvers in turn reduces once through it and
/// passes the solvers options with drop_dominated off.
[[nodiscard]] Solution solve_without_dominated(const Problem& problem, const SolveOptions& options,
                                               const std::function<Solution(const Problem&)>& solve);

}  // namespace layoutopt::solvers
