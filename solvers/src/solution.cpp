#include "layoutopt/solvers/solution.h"

#include <algorithm>
#include <cmath>

namespace layoutopt::solvers {

std::optional<double> Solution::gap() const {
  if (!lower_bound || !is_finite(cost) || !std::isfinite(*lower_bound)) return std::nullopt;
  const double difference = std::max(0.0, cost - *lower_bound);
  if (difference == 0.0) return 0.0;
  return difference / std::max(std::abs(cost), 1e-12);
}

}  // namespace layoutopt::solvers
