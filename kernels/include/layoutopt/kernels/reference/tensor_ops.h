#pragma once
// Reference data-movement operators and softmax in canonical layout.

#include <cstdint>
#include <vector>

#include "layoutopt/kernels/reference/host_tensor.h"

namespace layoutopt::kernels::reference {

[[nodiscard]] HostTensor concat(const std::vector<const HostTensor*>& inputs, int64_t axis);
/// Constant spatial padding of an NCHW tensor.
[[nodiscard]] HostTensor pad2d(const HostTensor& x, int64_t top, int64_t left, int64_t bottom, int64_t right,
                               float value);
[[nodiscard]] HostTensor transpose(const HostTensor& x, const std::vector<int64_t>& perm);
[[nodiscard]] HostTensor softmax(const HostTensor& x, int64_t axis);
/// Same data, new shape (flatten and reshape).
[[nodiscard]] HostTensor reshape(const HostTensor& x, std::vector<int64_t> shape);

}  // namespace layoutopt::kernels::reference
