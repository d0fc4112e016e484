#pragma once
// BlockedReduction: the classic x86 NCHWc microkernel tap for regular and grouped conv2d.
// For each input channel of the block: load the oc_bn weights as vectors, broadcast one input
// value per tile pixel, FMA into the tile. Weights are OIHW[ic_bn]i[oc_bn]o, so the vectors
// of one input channel are contiguous. With an input scale, each weight vector is first
// multiplied by its input channel's factor.

#include "conv/direct_conv_emitter.h"

namespace layoutopt::kernels::conv {

struct BlockedShape {
  int64_t groups = 1;
  int64_t ic_bn = 1, oc_bn = 1;
  int64_t in_blocks_per_group = 1;   ///< (in_channels / groups) / ic_bn
  int64_t out_blocks_per_group = 1;  ///< (out_channels / groups) / oc_bn
  int64_t kernel_h = 1, kernel_w = 1;
  int64_t tile_accumulators = 1;     ///< oh_bn * ow_bn * vector chunks: sizes the ic unroll
  /// The input's stored channel block when it is not a multiple of ic_bn (0 otherwise: a
  /// block's channels are consecutive from the row pointer), and the floats between the same
  /// pixel of consecutive stored blocks. Channel c then lies at (c / load_bn) * load_plane +
  /// c % load_bn from the row pointer (Conv2dSchedule::load_bn).
  int64_t load_bn = 0;
  int64_t load_plane = 0;
};

class BlockedReduction final : public ConvReduction {
 public:
  explicit BlockedReduction(const BlockedShape& shape) : s_(shape) {}

  [[nodiscard]] int64_t outer_steps() const override { return s_.in_blocks_per_group; }
  [[nodiscard]] int64_t weights_per_out_block() const override {
    return s_.in_blocks_per_group * s_.kernel_h * s_.kernel_w * s_.ic_bn * s_.oc_bn;
  }
  /// One slot per prefetch stride of the input-channel loop (plan_reduction_stretches), none
  /// where a stride holds too few FMAs to hide a slot in (prefetch_slot_pays).
  [[nodiscard]] int64_t prefetch_slots_per_tap() const override;
  [[nodiscard]] llvm::Value* input_block(llvm::IRBuilder<>& builder, llvm::Value* out_block,
                                         llvm::Value* step) const override;
  void accumulate(llvm::IRBuilder<>& builder, const Tap& tap, const AccumulatorTile& acc) const override;
  /// True when a tap reduces its ic_bn channels in one straight stretch (no ic loop).
  [[nodiscard]] bool taps_in_one_stretch() const { return stretches().unroll == s_.ic_bn; }

 private:
  /// Channels the input stores one after another: the reduction block, or its runs inside
  /// stored blocks of another size (BlockedShape::load_bn).
  [[nodiscard]] int64_t consecutive_channels() const;
  [[nodiscard]] ReductionStretches stretches() const;
  /// Offset from the row pointer of input channel `ic` of the tap's reduction block.
  [[nodiscard]] llvm::Value* input_channel_offset(llvm::IRBuilder<>& builder, const Tap& tap, llvm::Value* ic) const;
  void accumulate_channel(llvm::IRBuilder<>& builder, const Tap& tap, const AccumulatorTile& acc,
                          llvm::Value* weights, llvm::Value* ic, llvm::Value* input_offset) const;

  BlockedShape s_;
};

}  // namespace layoutopt::kernels::conv
