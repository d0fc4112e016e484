#pragma once
// Optimum-preserving preprocessing (dead-end elimination): drop every candidate b of a node
// for which another candidate a is never worse, whatever the neighbours choose, by
// Goldstein's criterion  c(a) - c(b) + sum over edges of max_j [C(a, j) - C(b, j)] <= 0
// (j over the neighbour's remaining candidates), repeated until nothing changes. Identical
// candidates merge into the first. It subsumes "the cheapest candidate per (input layout,
// output layout)" without knowing layouts. dp and pbqp run it first unless
// SolveOptions::drop_dominated is off.

#include <vector>

#include "layoutopt/solvers/problem.h"

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

}  // namespace layoutopt::solvers
