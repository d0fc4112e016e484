#include "layoutopt/timing/statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace layoutopt::timing {

double quantile_of_sorted(std::span<const double> sorted, double q) {
  if (sorted.empty()) throw std::invalid_argument("quantile of an empty sample");
  if (!(q >= 0.0 && q <= 1.0)) throw std::invalid_argument("quantile " + std::to_string(q) + " outside [0, 1]");
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<size_t>(std::floor(position));
  const size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

Summary summarize(std::span<const double> samples) {
  if (samples.empty()) throw std::invalid_argument("cannot summarize an empty sample");
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  Summary result;
  result.count = sorted.size();
  result.min = sorted.front();
  result.max = sorted.back();
  result.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(sorted.size());
  result.median = quantile_of_sorted(sorted, 0.5);
  result.q1 = quantile_of_sorted(sorted, 0.25);
  result.q3 = quantile_of_sorted(sorted, 0.75);
  std::vector<double> deviations(sorted.size());
  std::transform(sorted.begin(), sorted.end(), deviations.begin(),
                 [&](double x) { return std::abs(x - result.median); });
  std::sort(deviations.begin(), deviations.end());
  result.mad = quantile_of_sorted(deviations, 0.5);
  return result;
}

}  // namespace layoutopt::timing
