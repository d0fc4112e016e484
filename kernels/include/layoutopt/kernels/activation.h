#pragma once
// Standalone activations on an NCHW[x]c tensor: relu, relu6, sigmoid, tanh, hard sigmoid,
// hard swish, silu and leaky relu (the conv2d epilogue fuses relu / relu6 / hard swish / silu /
// PyTorch's hard sigmoid; these cover the unfused cases and the rest, e.g. squeeze-excite's sigmoid).
// Elementwise, so the layout only has to match between input and output: a tensor of another
// rank runs as the 1 x 1 x 1 x count tensor of its flat data (lowering.h's flat_tensor_desc).

#include <string>

#include "layoutopt/kernels/config_space.h"
#include "layoutopt/kernels/elementwise_schedule.h"
#include "layoutopt/kernels/kernel.h"
#include "layoutopt/kernels/tensor_desc.h"
#include "layoutopt/layout/layout.h"

namespace layoutopt::kernels {

enum class ActivationOp { relu, relu6, sigmoid, tanh, hard_sigmoid, hard_swish, silu, leaky_relu, gelu, gelu_tanh };

[[nodiscard]] const char* to_string(ActivationOp op);

struct ActivationDesc {
  TensorDesc tensor;  ///< input and output
  ActivationOp op = ActivationOp::relu;
  /// The op's parameters, ONNX's names: hard_sigmoid is max(0, min(1, alpha * x + beta)),
  /// leaky_relu is alpha * x below 0. Ignored by the other ops.
  float alpha = 0.0F;
  float beta = 0.0F;

  /// Throws KernelError for an invalid tensor or a parameter that is not finite.
  void validate() const;
  [[nodiscard]] std::string str() const;
  bool operator==(const ActivationDesc&) const = default;
};

struct ActivationLayouts {
  layout::Layout input;   ///< NCHW[x]c
  layout::Layout output;  ///< NCHW[x]c
};

/// elementwise_space over the whole tensor (one stream).
[[nodiscard]] ConfigSpace activation_space(const ActivationDesc& desc);
[[nodiscard]] ActivationLayouts activation_layouts(const ActivationDesc& desc);
/// KernelArgs: input, output. Sigmoid, silu and tanh use a polynomial exp (~1e-7 relative error).
[[nodiscard]] Kernel compile_activation(const ActivationDesc& desc, const ElementwiseSchedule& schedule);

}  // namespace layoutopt::kernels
