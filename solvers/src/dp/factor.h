#pragma once
// Cost tables over a few variables and the min-plus operations of variable elimination
// (internal). A node cost vector is a factor over {v}, an edge matrix a factor over {u, v};
// eliminating a variable sums every factor that mentions it and minimises it out, leaving a
// factor over its neighbours - the "message" of bucket elimination.

#include <cstdint>
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

/// For every entry of an elimination's result, the candidate of the eliminated variable that
/// attains its minimum (the first one among ties): all that back-tracking needs, at a quarter
/// of the memory of the factors it replaces.
using Choices = std::vector<uint16_t>;
/// Candidates a variable may have for its choices to fit.
inline constexpr int kMaxChoiceCandidates = UINT16_MAX + 1;

/// min over `var` of the sum of `factors` (each must contain var), as a factor over the
/// union of their scopes without var. `candidates[v]` gives every variable's domain size.
/// With `choices`, also records the minimising candidate of var for every result entry.
[[nodiscard]] Factor eliminate(const std::vector<const Factor*>& factors, int var, const std::vector<int>& candidates,
                               Choices* choices = nullptr);

}  // namespace layoutopt::solvers::dp
