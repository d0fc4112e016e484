#pragma once
// PackedGroupsReduction: grouped convs whose groups are narrower than a vector (ResNeXt's 4
// and 8 channels per group, RegNet-Y's 8) computed several groups to an output block. A block
// of P groups of c channels reads the same P * c input channels (input block = output block).
// Per tap and pixel it loads that input vector once and, for each channel j of a group,
// shuffles it so every lane holds channel j of its own group, then FMAs it with weight vector
// j: c shuffles and c full-width FMAs, where the blocked kernel's c-channel blocks fill only
// c lanes of each FMA. Weights are OIHW[c]i[P*c]o: vector j of a tap holds, in lane l, the
// weight from channel j of lane l's group. With the kernel's columns unrolled, neighbouring
// taps load the same input pixel and LLVM shares its shuffles across them.

#include "conv/direct_conv_emitter.h"

namespace layoutopt::kernels::conv {

class PackedGroupsReduction final : public ConvReduction {
 public:
  /// `group_channels` (c) must divide every vector chunk of `block` (validate_conv2d).
  PackedGroupsReduction(int64_t group_channels, int64_t block, int64_t kernel_h, int64_t kernel_w)
      : group_channels_(group_channels), block_(block), kernel_h_(kernel_h), kernel_w_(kernel_w) {}

  [[nodiscard]] int64_t outer_steps() const override { return 1; }
  [[nodiscard]] int64_t weights_per_out_block() const override {
    return kernel_h_ * kernel_w_ * group_channels_ * block_;
  }
  [[nodiscard]] llvm::Value* input_block(llvm::IRBuilder<>&, llvm::Value* out_block, llvm::Value*) const override {
    return out_block;
  }
  void accumulate(llvm::IRBuilder<>& builder, const Tap& tap, const AccumulatorTile& acc) const override;

 private:
  int64_t group_channels_, block_, kernel_h_, kernel_w_;
};

}  // namespace layoutopt::kernels::conv
