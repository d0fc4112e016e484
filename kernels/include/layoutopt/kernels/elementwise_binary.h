#pragma once
// Elementwise binary operators on NCHW[x]c tensors: add, sub, mul, div, max, min and prelu
// (x where x >= 0, slope * x below). The second operand is either a tensor of the same shape
// and layout (ResNet's unfused residual add), a per-(n, c) factor of shape N x C x 1 x 1
// broadcast over H and W (squeeze-excite's channel scaling), or a constant per-channel vector
// broadcast over N, H and W (x * const[C, 1, 1], (x - mean) / std, prelu's slopes; scalars
// are expanded to one). Either operand may be the left one: sub, div and prelu do not commute.
// Tensors of other ranks run as the 1 x 1 x 1 x count tensor of their flat data, with a
// same-shaped operand or a scalar as a one-channel constant (lowering.h's flat_binary_desc).

#include <string>

#include "layoutopt/kernels/config_space.h"
#include "layoutopt/kernels/elementwise_schedule.h"
#include "layoutopt/kernels/kernel.h"
#include "layoutopt/kernels/tensor_desc.h"
#include "layoutopt/layout/layout.h"

namespace layoutopt::kernels {

enum class BinaryOp { add, sub, mul, div, max, min, prelu };

[[nodiscard]] const char* to_string(BinaryOp op);

/// The shape of the second operand, and where the kernel reads it.
enum class BinaryOperand {
  same_shape,     ///< the tensor's shape and layout: KernelArgs::residual
  batch_channel,  ///< N x C x 1 x 1, the plain [N][C] array in every NCHW[x]c layout: KernelArgs::weight
  channel,        ///< a plain [C] vector, the same for every n: KernelArgs::weight
};

struct ElementwiseBinaryDesc {
  TensorDesc tensor;  ///< the full-shaped operand and the output
  BinaryOp op = BinaryOp::add;
  BinaryOperand other = BinaryOperand::same_shape;
  /// The second operand is the left one: out = other op tensor instead of tensor op other.
  bool other_first = false;

  /// Throws KernelError for an invalid tensor.
  void validate() const;
  [[nodiscard]] std::string str() const;
  bool operator==(const ElementwiseBinaryDesc&) const = default;
};

struct ElementwiseBinaryLayouts {
  layout::Layout input;   ///< NCHW[x]c
  layout::Layout other;   ///< NCHW[x]c (of N x C x 1 x 1, or 1 x C x 1 x 1, when per-channel)
  layout::Layout output;  ///< NCHW[x]c
};

/// elementwise_space over the whole tensor, or over one (n, channel block) plane when the
/// second operand is per-channel.
[[nodiscard]] ConfigSpace elementwise_binary_space(const ElementwiseBinaryDesc& desc);
[[nodiscard]] ElementwiseBinaryLayouts elementwise_binary_layouts(const ElementwiseBinaryDesc& desc);
/// KernelArgs: input = the full-shaped operand, output; the second operand is `residual` when
/// same-shaped (output may be that very buffer) and `weight` when per-channel (a small operand,
/// like batch norm's scale).
[[nodiscard]] Kernel compile_elementwise_binary(const ElementwiseBinaryDesc& desc, const ElementwiseSchedule& schedule);

}  // namespace layoutopt::kernels
