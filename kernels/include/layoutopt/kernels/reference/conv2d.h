#pragma once
// Plain NCHW reference for conv2d (regular, grouped, depthwise) with the fused epilogue:
// obviously-correct loops, double accumulation. The ground truth for the JIT kernels' tests.

#include "layoutopt/kernels/conv2d_desc.h"

namespace layoutopt::kernels::reference {

/// input NCHW, weight OIHW (O x in_channels/groups x KH x KW), bias [O] (may be null unless
/// the epilogue uses it; with a prologue, its scales and shifts follow: Conv2dDesc::bias_floats),
/// residual NCHW like the output (may be null unless used), output NCHW.
/// Throws KernelError for a desc with an input scale (conv2d_scaled computes those).
void conv2d(const Conv2dDesc& desc, const float* input, const float* weight, const float* bias,
            const float* residual, float* output);

/// conv2d of input * scale for a desc with an input scale, scale [N, in_channels]: the input
/// is scaled in a copy, then conv2d runs on the copy.
void conv2d_scaled(const Conv2dDesc& desc, const float* input, const float* scale, const float* weight,
                   const float* bias, const float* residual, float* output);

}  // namespace layoutopt::kernels::reference
