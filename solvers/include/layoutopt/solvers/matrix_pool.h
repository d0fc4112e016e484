#pragma once
// Interning of edge cost matrices: equal matrices share one immutable allocation, so a
// 5,000-node instance built from a few dozen layer shapes stores a few dozen matrices.

#include <cstddef>
#include <unordered_map>
#include <vector>

#include "layoutopt/solvers/cost.h"

namespace layoutopt::solvers {

class MatrixPool {
 public:
  /// Returns a shared matrix equal to `matrix` (bitwise), reusing an earlier one if present.
  MatrixPtr intern(Matrix matrix);
  /// Number of distinct matrices held.
  [[nodiscard]] size_t size() const { return count_; }

 private:
  std::unordered_map<size_t, std::vector<MatrixPtr>> buckets_;  // by content hash
  size_t count_ = 0;
};

}  // namespace layoutopt::solvers
