#pragma once
// Plain NCHW reference for the transposed convolution (ONNX ConvTranspose): every input
// element scatters into the output through the kernel, double accumulation.

#include "layoutopt/graph/ops.h"
#include "layoutopt/kernels/reference/host_tensor.h"

namespace layoutopt::kernels::reference {

/// x [N, I, H, W], weight [I, O/groups, KH, KW], bias [O] (null unless attrs.bias); the
/// output is [N, O, OH, OW] with graph::transposed_window_output_extent's extents.
[[nodiscard]] HostTensor conv_transpose2d(const HostTensor& x, const HostTensor& weight, const HostTensor* bias,
                                          const graph::ConvTranspose2d& attrs);

}  // namespace layoutopt::kernels::reference
