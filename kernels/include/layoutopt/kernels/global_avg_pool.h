#pragma once
// Global average pooling NCHW[x]c -> N x C x 1 x 1 in NCHW[x]c (the same memory as NC[x]c,
// what dense consumes). Runs on the pool2d kernel with an H x W window; work items are
// (n, channel block).

#include "layoutopt/kernels/kernel.h"
#include "layoutopt/kernels/tensor_desc.h"
#include "layoutopt/layout/layout.h"

namespace layoutopt::kernels {

struct GlobalAvgPoolLayouts {
  layout::Layout input;   ///< NCHW[x]c
  layout::Layout output;  ///< NCHW[x]c with H = W = 1
};

/// Throws KernelError for an invalid input desc.
[[nodiscard]] GlobalAvgPoolLayouts global_avg_pool_layouts(const TensorDesc& input);
/// KernelArgs: input, output.
[[nodiscard]] Kernel compile_global_avg_pool(const TensorDesc& input);

}  // namespace layoutopt::kernels
