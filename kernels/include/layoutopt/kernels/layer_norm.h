#pragma once
// Layer normalization over one axis: y = (x - mean) / sqrt(var + epsilon) * scale + shift,
// mean and variance taken along the normalized axis at every other position. The memory is
// [outer][C / block][inner][block]: NCHW[x]c normalized over C is outer = N, inner = H * W,
// block = x; a token tensor [N, T, C] normalized over its last axis is outer = N * T,
// inner = 1 (any block dividing C names that same memory). Work items are positions
// (outer * inner); each takes three vectorized passes over its channels: the mean, the
// variance as the mean of (x - mean)^2 (not E[x^2] - mean^2, which cancels), and the output.

#include <cstdint>
#include <string>

#include "layoutopt/kernels/kernel.h"

namespace layoutopt::kernels {

struct LayerNormDesc {
  int64_t outer = 1;
  int64_t channels = 0;  ///< C, the normalized extent
  int64_t inner = 1;
  int64_t block = 1;  ///< must divide channels
  float epsilon = 1e-5F;

  [[nodiscard]] int64_t positions() const { return outer * inner; }
  [[nodiscard]] int64_t elements() const { return outer * channels * inner; }
  /// Throws KernelError for non-positive sizes, a block not dividing C, or a negative or
  /// non-finite epsilon.
  void validate() const;
  [[nodiscard]] std::string str() const;
  bool operator==(const LayerNormDesc&) const = default;
};

/// KernelArgs: input, weight = scale[C], bias = shift[C], output (may be the input's buffer).
[[nodiscard]] Kernel compile_layer_norm(const LayerNormDesc& desc);

}  // namespace layoutopt::kernels
