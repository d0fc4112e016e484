#pragma once
// Cost tables over a few variables and the min-plus operations of variable elimination
// (internal). A node cost vector is a factor over {v}, an edge matrix a factor over {u, v};
// eliminating a variable sums every factor that mentions it and minimises it out, leaving a
// factor over its neighbours - the "message" of bucket elimination.

#include <vector>

#include "layoutopt/solvers/problem.h"

namespace layoutopt::solvers::dp {

struct Factor {
  std::vector<int> scope;   ///< ascending variable (node) ids
  std::vector<int> dims;    ///< candidates of each scope variable
  std::vector<Cost> table;  ///< row-major: the last scope variable varies fastest

  [[nodiscard]] static Factor unary(int v, const Vector& costs);
  [[nodiscard]] static Factor pairwise(const Edge& edge);
  /// Stride of `var` in the table; 0 when var is not in the scope.
  [[nodiscard]] size_t stride(int var) const;
};

/// min over `var` of the sum of `factors` (each must contain var), as a factor over the
/// union of their scopes without var. `candidates[v]` gives every variable's domain size.
[[nodiscard]] Factor eliminate(const std::vector<const Factor*>& factors, int var, const std::vector<int>& candidates);

/// The candidate of `var` minimising the sum of `factors`, all other variables being set
/// as in `assignment`.
[[nodiscard]] int best_choice(const std::vector<const Factor*>& factors, int var, int var_candidates,
                              const Assignment& assignment);

}  // namespace layoutopt::solvers::dp
