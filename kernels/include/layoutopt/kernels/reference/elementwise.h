#pragma once
// Reference elementwise operators in canonical layout.

#include "layoutopt/kernels/reference/host_tensor.h"

namespace layoutopt::kernels::reference {

enum class UnaryOp { relu, sigmoid };
[[nodiscard]] HostTensor unary(UnaryOp op, const HostTensor& x);
[[nodiscard]] HostTensor clip(const HostTensor& x, float min, float max);

enum class BinaryOp { add, mul };
/// Numpy broadcasting of a and b.
[[nodiscard]] HostTensor binary(BinaryOp op, const HostTensor& a, const HostTensor& b);

/// Inference batch norm over axis 1: (x - mean) / sqrt(var + eps) * scale + shift.
[[nodiscard]] HostTensor batch_norm(const HostTensor& x, const float* scale, const float* shift, const float* mean,
                                    const float* variance, float epsilon);

}  // namespace layoutopt::kernels::reference
