#pragma once
// Reference local response normalization across channels, exactly as ONNX LRN defines it.

#include "layoutopt/graph/ops.h"
#include "layoutopt/kernels/reference/host_tensor.h"

namespace layoutopt::kernels::reference {

/// x [N, C, ...]: y = x / (bias + alpha / size * square_sum)^beta, square_sum over channels
/// [c - floor((size - 1) / 2), c + ceil((size - 1) / 2)] that exist.
[[nodiscard]] HostTensor lrn(const HostTensor& x, const graph::Lrn& attrs);

}  // namespace layoutopt::kernels::reference
