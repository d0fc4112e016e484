#pragma once
// Robust summary statistics of repeated timings. Timings on a shared machine have a long
// upper tail (preemption, frequency changes), so the median and the interquartile range /
// median absolute deviation are the figures to trust; mean, min and max are kept for context.

#include <cstddef>
#include <span>

namespace layoutopt::timing {

struct Summary {
  size_t count = 0;
  double min = 0;
  double max = 0;
  double mean = 0;
  double median = 0;
  double q1 = 0;   ///< lower quartile
  double q3 = 0;   ///< upper quartile
  double mad = 0;  ///< median absolute deviation from the median (unscaled)
  [[nodiscard]] double iqr() const { return q3 - q1; }
};

/// Summary of `samples` (any order). Throws std::invalid_argument when empty.
Summary summarize(std::span<const double> samples);

/// Quantile q in [0, 1] of already sorted values, interpolating linearly between order
/// statistics (the "type 7" definition of R and NumPy). Throws when empty or q is outside.
double quantile_of_sorted(std::span<const double> sorted, double q);

}  // namespace layoutopt::timing
