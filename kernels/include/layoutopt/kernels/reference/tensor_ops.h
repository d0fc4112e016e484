#pragma once
// Reference data-movement operators, softmax and mean reduction in canonical layout.

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
/// Mean over `axes` (ascending, non-negative), kept as extent-1 dimensions when `keep_dims`.
[[nodiscard]] HostTensor reduce_mean(const HostTensor& x, const std::vector<int64_t>& axes, bool keep_dims);
/// Elements start, start + step, ... before end along `axis` (0 <= start < end <= extent).
[[nodiscard]] HostTensor slice(const HostTensor& x, int64_t axis, int64_t start, int64_t end, int64_t step);
/// a[..., M, K] x b[..., K, N] over the last two axes, numpy-broadcast over the others.
[[nodiscard]] HostTensor batch_matmul(const HostTensor& a, const HostTensor& b, const std::vector<int64_t>& out_shape);
/// Output channel i * groups + j is input channel j * (channels / groups) + i.
[[nodiscard]] HostTensor channel_shuffle(const HostTensor& x, int64_t groups);

}  // namespace layoutopt::kernels::reference
