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

/// Product of the extents.
[[nodiscard]] int64_t element_count(const std::vector<int64_t>& shape);

}  // namespace layoutopt::kernels::reference
