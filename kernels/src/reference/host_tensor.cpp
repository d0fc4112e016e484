#include "layoutopt/kernels/reference/host_tensor.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace layoutopt::kernels::reference {

int64_t element_count(const std::vector<int64_t>& shape) {
  int64_t count = 1;
  for (int64_t extent : shape) count *= extent;
  return count;
}

HostTensor::HostTensor(std::vector<int64_t> dims)
    : shape(std::move(dims)), data(static_cast<size_t>(element_count(shape)), 0.0f) {}

double max_relative_difference(const HostTensor& expected, const HostTensor& actual) {
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  if (expected.shape != actual.shape || expected.data.size() != actual.data.size()) return kInfinity;
  double difference = 0, scale = 1e-30;
  for (size_t i = 0; i < expected.data.size(); ++i) {
    const double d = std::abs(double{expected.data[i]} - double{actual.data[i]});
    if (std::isnan(d)) return kInfinity;
    difference = std::max(difference, d);
    scale = std::max(scale, std::abs(double{expected.data[i]}));
  }
  return difference / scale;
}

}  // namespace layoutopt::kernels::reference
