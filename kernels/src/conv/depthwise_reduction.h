#pragma once
// DepthwiseReduction: per tap, one weight vector per channel chunk multiplies the input
// vectors of the same channels (no broadcast, no input-channel loop). Weights OIHW1i[c_bn]o.

#include "conv/direct_conv_emitter.h"

namespace layoutopt::kernels::conv {

class DepthwiseReduction final : public ConvReduction {
 public:
  DepthwiseReduction(int64_t c_bn, int64_t kernel_h, int64_t kernel_w)
      : c_bn_(c_bn), kernel_h_(kernel_h), kernel_w_(kernel_w) {}

  [[nodiscard]] int64_t outer_steps() const override { return 1; }
  [[nodiscard]] int64_t weights_per_out_block() const override { return kernel_h_ * kernel_w_ * c_bn_; }
  [[nodiscard]] llvm::Value* input_block(llvm::IRBuilder<>&, llvm::Value* out_block, llvm::Value*) const override {
    return out_block;
  }
  void accumulate(llvm::IRBuilder<>& builder, const Tap& tap, const AccumulatorTile& acc) const override;

 private:
  int64_t c_bn_, kernel_h_, kernel_w_;
};

}  // namespace layoutopt::kernels::conv
