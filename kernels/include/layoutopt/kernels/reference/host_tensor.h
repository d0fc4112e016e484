#pragma once
// A plain dense tensor in canonical (NCHW / NC) order, what the reference executor and
// `layoutopt run` pass around.

#include <cstdint>
#include <vector>

namespace layoutopt::kernels::reference {

struct HostTensor {
  std::vector<int64_t> shape;
  std::vector<float> data;

  HostTensor() = default;
  explicit HostTensor(std::vector<int64_t> dims);
  [[nodiscard]] int64_t size() const { return static_cast<int64_t>(data.size()); }
};

/// Largest |actual - expected| over the largest |expected|: how far a result is from a
/// reference, relative to the reference's scale. A NaN anywhere in `actual` gives infinity;
/// shapes must match (else infinity too).
[[nodiscard]] double max_relative_difference(const HostTensor& expected, const HostTensor& actual);

/// Product of the extents.
[[nodiscard]] int64_t element_count(const std::vector<int64_t>& shape);

}  // namespace layoutopt::kernels::reference
