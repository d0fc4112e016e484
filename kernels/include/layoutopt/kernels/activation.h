#pragma once
// Standalone activations relu / relu6 / sigmoid on an NCHW[x]c tensor (the conv2d epilogue
// fuses relu / relu6; these cover the unfused cases and sigmoid, e.g. in squeeze-excite).
// Elementwise, so the layout only has to match between input and output.

#include <string>

#include "layoutopt/kernels/config_space.h"
#include "layoutopt/kernels/elementwise_schedule.h"
#include "layoutopt/kernels/kernel.h"
#include "layoutopt/kernels/tensor_desc.h"
#include "layoutopt/layout/layout.h"

namespace layoutopt::kernels {

enum class ActivationOp { relu, relu6, sigmoid };

[[nodiscard]] const char* to_string(ActivationOp op);

struct ActivationDesc {
  TensorDesc tensor;  ///< input and output
  ActivationOp op = ActivationOp::relu;

  /// Throws KernelError for an invalid tensor.
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
/// KernelArgs: input, output. Sigmoid uses a polynomial exp (~1e-7 relative error).
[[nodiscard]] Kernel compile_activation(const ActivationDesc& desc, const ElementwiseSchedule& schedule);

}  // namespace layoutopt::kernels
