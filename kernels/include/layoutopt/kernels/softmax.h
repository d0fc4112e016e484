#pragma once
// Softmax over the channel axis of a 2-D N x C tensor (a classifier's logits), or over the
// last axis of any tensor in canonical order as its rows (attention's scores). NC[x]c is
// the same memory as NC for every x (a row's blocks are consecutive), so the kernel is
// layout-independent; the block only names the layouts the operator accepts. Work items are
// rows; each row takes three vectorized passes (max, exp and sum, scale).

#include <cstdint>
#include <string>

#include "layoutopt/kernels/kernel.h"
#include "layoutopt/layout/layout.h"

namespace layoutopt::kernels {

struct SoftmaxDesc {
  int64_t batch = 1;
  int64_t channels = 0;
  int64_t block = 1;  ///< NC[block]c; must divide channels

  /// Throws KernelError for non-positive sizes or a block not dividing the channels.
  void validate() const;
  [[nodiscard]] std::string str() const;
  bool operator==(const SoftmaxDesc&) const = default;
};

struct SoftmaxLayouts {
  layout::Layout input;   ///< NC[x]c
  layout::Layout output;  ///< NC[x]c
};

[[nodiscard]] SoftmaxLayouts softmax_layouts(const SoftmaxDesc& desc);
/// KernelArgs: input, output. exp is a polynomial (~1e-7 relative error).
[[nodiscard]] Kernel compile_softmax(const SoftmaxDesc& desc);

}  // namespace layoutopt::kernels
