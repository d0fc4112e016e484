#pragma once
// Plain NC reference for dense with the fused epilogue, double accumulation.

#include "layoutopt/kernels/dense.h"

namespace layoutopt::kernels::reference {

/// input NC, weight OI, bias [O], residual NC like the output, output NC.
void dense(const DenseDesc& desc, const float* input, const float* weight, const float* bias,
           const float* residual, float* output);

}  // namespace layoutopt::kernels::reference
