#include "layoutopt/kernels/reference/host_tensor.h"

#include <cstddef>

namespace layoutopt::kernels::reference {

int64_t element_count(const std::vector<int64_t>& shape) {
  int64_t count = 1;
  for (int64_t extent : shape) count *= extent;
  return count;
}

HostTensor::HostTensor(std::vector<int64_t> dims)
    : shape(std::move(dims)), data(static_cast<size_t>(element_count(shape)), 0.0f) {}

}  // namespace layoutopt::kernels::reference
