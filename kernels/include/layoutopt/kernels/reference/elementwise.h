#pragma once
// Reference elementwise operators in canonical layout.

#include "layoutopt/kernels/reference/host_tensor.h"

namespace layoutopt::kernels::reference {

/// hard_swish is x * max(0, min(1, x / 6 + 1 / 2)), silu is x * sigmoid(x); gelu is
/// 0.5 * x * (1 + erf(x / sqrt(2))), gelu_tanh PyTorch's tanh approximation of it.
enum class UnaryOp { relu, sigmoid, tanh, hard_swish, silu, gelu, gelu_tanh };
[[nodiscard]] HostTensor unary(UnaryOp op, const HostTensor& x);
[[nodiscard]] HostTensor clip(const HostTensor& x, float min, float max);
/// max(0, min(1, alpha * x + beta)).
[[nodiscard]] HostTensor hard_sigmoid(const HostTensor& x, float alpha, float beta);
/// x for x >= 0, alpha * x below.
[[nodiscard]] HostTensor leaky_relu(const HostTensor& x, float alpha);

/// prelu is a for a >= 0, else a * b (b is the slope, broadcast to a).
enum class BinaryOp { add, mul, sub, div, max, min, prelu };
/// Numpy broadcasting of a and b.
[[nodiscard]] HostTensor binary(BinaryOp op, const HostTensor& a, const HostTensor& b);

/// Inference batch norm over axis 1: (x - mean) / sqrt(var + eps) * scale + shift.
[[nodiscard]] HostTensor batch_norm(const HostTensor& x, const float* scale, const float* shift, const float* mean,
                                    const float* variance, float epsilon);

/// Layer norm along `axis`: (x - mean) / sqrt(var + eps) * scale + shift, mean and (biased)
/// variance over that axis for each position of the others; scale and shift have its extent.
[[nodiscard]] HostTensor layer_norm(const HostTensor& x, int64_t axis, const float* scale, const float* shift,
                                    float epsilon);

}  // namespace layoutopt::kernels::reference
