#pragma once
// Inference batch norm on an NCHW[x]c tensor as a per-channel affine map, optionally
// followed by a fused activation,
//   out = activation(in * scale[c] + shift[c]),
// with scale and shift folded from (gamma, beta, mean, variance, epsilon) once, when the
// plan is compiled (fold_batch_norm). Usually batch norm is folded into the preceding conv's
// weights; this operator covers the cases where it cannot be (e.g. after a concat).

#include <span>
#include <string>
#include <vector>

#include "layoutopt/kernels/config_space.h"
#include "layoutopt/kernels/elementwise_schedule.h"
#include "layoutopt/kernels/epilogue.h"
#include "layoutopt/kernels/kernel.h"
#include "layoutopt/kernels/tensor_desc.h"
#include "layoutopt/layout/layout.h"

namespace layoutopt::kernels {

struct BatchNormDesc {
  TensorDesc tensor;  ///< input and output
  Activation activation = Activation::None;

  /// Throws KernelError for an invalid tensor.
  void validate() const;
  [[nodiscard]] std::string str() const;
  bool operator==(const BatchNormDesc&) const = default;
};

/// Plain per-channel vectors (C floats each, whatever the tensor's block).
struct BatchNormCoefficients {
  std::vector<float> scale;
  std::vector<float> shift;
};

/// scale = gamma / sqrt(variance + epsilon), shift = beta - mean * scale, in double
/// precision. Throws KernelError unless all four spans have the same length.
[[nodiscard]] BatchNormCoefficients fold_batch_norm(std::span<const float> gamma, std::span<const float> beta,
                                                    std::span<const float> mean, std::span<const float> variance,
                                                    float epsilon);

struct BatchNormLayouts {
  layout::Layout input;   ///< NCHW[x]c
  layout::Layout output;  ///< NCHW[x]c
};

/// elementwise_space over one (n, channel block) plane.
[[nodiscard]] ConfigSpace batch_norm_space(const BatchNormDesc& desc);
[[nodiscard]] BatchNormLayouts batch_norm_layouts(const BatchNormDesc& desc);
/// KernelArgs: input, weight = scale[C], bias = shift[C], output.
[[nodiscard]] Kernel compile_batch_norm(const BatchNormDesc& desc, const ElementwiseSchedule& schedule);

}  // namespace layoutopt::kernels
