#pragma once
// Flatten N x C x H x W -> N x (C*H*W). Flatten never moves data, it only renames it, which
// a blocked layout allows in two cases:
//   H = W = 1:   NCHW[x]c is the same memory as NC[x]c (after global pooling, before dense);
//   block 1:     NCHW is the same memory as the flattened NC.
// Anything else (e.g. NCHW16c with 7 x 7 pixels) would interleave channels and pixels
// differently from NCHW order: convert to NCHW first. Since the output is a view of the
// input, callers may simply alias the buffers; compile_flatten gives a copy kernel for
// executors that keep every tensor in its own buffer.

#include "layoutopt/kernels/elementwise_schedule.h"
#include "layoutopt/kernels/kernel.h"
#include "layoutopt/kernels/tensor_desc.h"
#include "layoutopt/layout/layout.h"

namespace layoutopt::kernels {

struct FlattenLayouts {
  layout::Layout input;   ///< NCHW[x]c
  layout::Layout output;  ///< NC[x]c (x = 1 when flattening a spatial NCHW tensor)
};

/// Throws KernelError for an invalid tensor or one that is neither 1 x 1 nor plain NCHW.
void validate_flatten(const TensorDesc& input);
[[nodiscard]] FlattenLayouts flatten_layouts(const TensorDesc& input);
/// A copy kernel. KernelArgs: input, output.
[[nodiscard]] Kernel compile_flatten(const TensorDesc& input, const ElementwiseSchedule& schedule);

}  // namespace layoutopt::kernels
