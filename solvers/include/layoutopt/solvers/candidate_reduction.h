#pragma once
// Optimum-preserving preprocessing: drop every candidate that is dominated by another
// candidate of the same node (no more expensive on the node and on every edge entry, for
// every choice of the neighbours). Identical candidates are merged into the first one.
// Callers that know layout signatures should first keep the cheapest candidate per
// (input layout, output layout); this generic pass catches that and more.

#include <vector>

#include "layoutopt/solvers/problem.h"

namespace layoutopt::solvers {

struct CandidateReduction {
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
