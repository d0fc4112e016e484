#pragma once
// Elementwise add / mul of NCHW[x]c tensors: either two tensors of the same shape and layout
// (ResNet's unfused residual add) or a tensor and a per-(n, c) factor of shape N x C x 1 x 1
// broadcast over H and W (squeeze-excite's channel scaling).

#include <string>

#include "layoutopt/kernels/config_space.h"
#include "layoutopt/kernels/elementwise_schedule.h"
#include "layoutopt/kernels/kernel.h"
#include "layoutopt/kernels/tensor_desc.h"
#include "layoutopt/layout/layout.h"

namespace layoutopt::kernels {

enum class BinaryOp { add, mul };

[[nodiscard]] const char* to_string(BinaryOp op);

struct ElementwiseBinaryDesc {
  TensorDesc tensor;  ///< first operand and output
  BinaryOp op = BinaryOp::add;
  /// false: the second operand has the tensor's shape and layout. true: it is N x C x 1 x 1,
  /// whose memory is the plain [N][C] array in every NCHW[x]c layout.
  bool broadcast_channels = false;

  /// Throws KernelError for an invalid tensor.
  void validate() const;
  [[nodiscard]] std::string str() const;
  bool operator==(const ElementwiseBinaryDesc&) const = default;
};

struct ElementwiseBinaryLayouts {
  layout::Layout input;   ///< NCHW[x]c
  layout::Layout other;   ///< NCHW[x]c (of N x C x 1 x 1 when broadcasting)
  layout::Layout output;  ///< NCHW[x]c
};

/// elementwise_space over the whole tensor, or over one (n, channel block) plane when
/// broadcasting.
[[nodiscard]] ConfigSpace elementwise_binary_space(const ElementwiseBinaryDesc& desc);
[[nodiscard]] ElementwiseBinaryLayouts elementwise_binary_layouts(const ElementwiseBinaryDesc& desc);
/// KernelArgs: input = first operand, output; the second operand is `residual` for same-shape
/// operands (output may be that very buffer) and `weight` when broadcasting (a small
/// per-channel operand, like batch norm's scale).
[[nodiscard]] Kernel compile_elementwise_binary(const ElementwiseBinaryDesc& desc, const ElementwiseSchedule& schedule);

}  // namespace layoutopt::kernels
