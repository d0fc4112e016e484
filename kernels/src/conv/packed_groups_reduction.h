#pragma once
// PackedGroupsReduction: grouped convs whose groups are narrower than a vector (ResNeXt's 4
// and 8 channels per group, RegNet-Y's 8) computed several groups to an output block. A block
// of P groups of c channels reads the same P * c input channels (input block = output block).
// Per tap and pixel it loads that input vector once and, for each channel j of a group,
// shuffles it so every lane holds channel j of its own group, then FMAs it with weight vector
// j (lane l: the weight from channel j of lane l's group): c shuffles and c full-width FMAs,
// where the blocked kernel's c-channel blocks fill only c lanes of each FMA. With the
// kernel's columns unrolled, a kernel row's taps go pixel by pixel: each input pixel is
// loaded and shuffled once for every tap that reads it (docs/design/default-schedules.md).

#include "conv/direct_conv_emitter.h"
#include "conv/packed_row_registers.h"

namespace layoutopt::kernels::conv {

struct PackedGroupsShape {
  int64_t group_channels = 1;  ///< c: input and output channels of one group
  int64_t block = 1;           ///< output (and input) channels of a block: whole groups
  /// Weights are OIHW[ic_bn]i[block]o with ic_bn dividing c: vector j lies in input block
  /// j / ic_bn of the output block's c / ic_bn.
  int64_t ic_bn = 1;
  int64_t kernel_h = 1, kernel_w = 1;
  /// The input's stored block when it does not hold whole blocks (0 otherwise: a block's
  /// channels are consecutive from the row pointer), and the floats between the same pixel of
  /// consecutive stored blocks (as BlockedShape's).
  int64_t load_bn = 0;
  int64_t load_plane = 0;
};

class PackedGroupsReduction final : public ConvReduction {
 public:
  /// The shape's group_channels must divide every vector chunk of its block (validate_conv2d).
  explicit PackedGroupsReduction(const PackedGroupsShape& shape) : s_(shape) {}

  [[nodiscard]] int64_t outer_steps() const override { return 1; }
  [[nodiscard]] int64_t weights_per_out_block() const override {
    return s_.kernel_h * s_.kernel_w * s_.group_channels * s_.block;
  }
  [[nodiscard]] llvm::Value* input_block(llvm::IRBuilder<>&, llvm::Value* out_block, llvm::Value*) const override {
    return out_block;
  }
  void accumulate(llvm::IRBuilder<>& builder, const Tap& tap, const AccumulatorTile& acc) const override;
  /// Pixel by pixel: each input pixel of the row is loaded and spread once, then FMAed into
  /// every (tap, column) that reads it.
  void accumulate_kernel_row(llvm::IRBuilder<>& builder, const std::vector<Tap>& taps,
                             const AccumulatorTile& acc) const override;

 private:
  /// Offsets from a row pointer of the pieces of the input vector `chunk` (one piece when the
  /// stored block holds whole blocks, else runs inside stored blocks).
  [[nodiscard]] jit::VectorPlacement input_pieces(llvm::IRBuilder<>& builder, const Tap& tap,
                                                  const jit::VectorChunk& chunk) const;
  /// The input vector `x` with channel `channel` of each group in all of the group's lanes.
  [[nodiscard]] llvm::Value* spread(llvm::IRBuilder<>& builder, llvm::Value* x, int64_t channel, int64_t lanes) const;
  /// Weight vector of group channel `channel` at the tap, lanes of `chunk`.
  [[nodiscard]] llvm::Value* weight_vector(llvm::IRBuilder<>& builder, const Tap& tap, int64_t channel,
                                           const jit::VectorChunk& chunk) const;

  PackedGroupsShape s_;
};

}  // namespace layoutopt::kernels::conv
