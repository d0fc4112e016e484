#pragma once
// The direct-convolution kernel skeleton shared by conv2d (regular / grouped), depthwise
// conv2d and dense: work-item decoding, output-row and output-column register tiling with
// compile-time padding handling, the (outer step, kh, kw) reduction loops, the fused
// epilogue and the stores. Flavours differ only in the per-tap FMAs (ConvReduction).
//
// Loop order per work item (n, out tile, row tile), following TVM's NCHWc schedule:
//   ow_tile, outer_step (input-channel block), kh, kw, [flavour: ic_inner, row, column, chunk]
// With steps_per_pass, a pass loop runs outside the items: each pass reduces its input blocks
// for every item of the thread's range, partial sums kept in the output between passes.
// With prefetch_weights, each tap also fetches a share of the next block's weights, which the
// flavour spreads over its ic_inner loop (WeightPrefetch, plan_weight_stream).

#include <llvm/IR/IRBuilder.h>

#include <string>
#include <vector>

#include "conv/accumulator_tile.h"
#include "conv/direct_conv_geometry.h"
#include "layoutopt/kernels/kernel.h"

namespace layoutopt::kernels::conv {

/// One column of the register tile that reads real input at the current tap.
struct TapColumn {
  int64_t column = 0;            ///< position in the register tile
  llvm::Value* offset = nullptr; ///< element offset of its input pixel within the input row
  /// Its input pixel's column counted from the tile's first output column's pixel at kw = 0
  /// (column * stride_w + kw * dilation_w): columns of two taps of one kernel row with the
  /// same value read the same pixel.
  int64_t input_column = 0;
};

/// The share of the next output tile's weights one tap fetches toward L1, spread over the
/// reduction's prefetch slots (see plan_weight_stream).
struct WeightPrefetch {
  llvm::Value* block_start = nullptr;  ///< float offset of the next tile's weights
  llvm::Value* first_slot = nullptr;   ///< the tile's slot that is the tap's slot 0
  WeightStream stream;                 ///< the kernel's plan (lines_per_slot 0: no prefetch)

  /// Emits the prefetches of the tap's slot `slot` (nothing when stream.lines_per_slot is 0).
  void emit(llvm::IRBuilder<>& builder, llvm::Value* weight, llvm::Value* slot) const;
};

/// Everything a flavour needs to emit the FMAs of one kernel tap (kh, kw).
struct Tap {
  llvm::Value* weight = nullptr;     ///< weight base pointer
  llvm::Value* out_block = nullptr;  ///< first output-channel block of the work item's tile
  llvm::Value* step = nullptr;       ///< outer reduction step (input-channel block in group)
  llvm::Value* kh = nullptr;
  llvm::Value* kw = nullptr;
  std::vector<llvm::Value*> rows;    ///< per tile row: pointer to its input row (or zeros)
  std::vector<TapColumn> columns;    ///< tile columns that read inside the input
  WeightPrefetch prefetch;
  /// With an input scale: the factor of the input block's first channel for the item's image
  /// (the block's factors follow it); null without one.
  llvm::Value* scales = nullptr;
  /// The first input channel of the reduction block (in_block * in_bn), for a flavour that
  /// addresses channels in an input stored in another block (BlockedShape::load_bn).
  llvm::Value* first_channel = nullptr;
  /// Output blocks the tile computes from out_block on: the accumulator chunks with offsets
  /// below blocks * the block size (tile_chunks).
  int64_t blocks = 1;
};

class ConvReduction {
 public:
  virtual ~ConvReduction() = default;
  /// Trip count of the reduction loop outside (kh, kw).
  [[nodiscard]] virtual int64_t outer_steps() const = 0;
  /// Floats of weights one output block reads, contiguous from block `o` at o times this.
  [[nodiscard]] virtual int64_t weights_per_out_block() const = 0;
  /// Places per tap where accumulate emits tap.prefetch (0: it never prefetches).
  [[nodiscard]] virtual int64_t prefetch_slots_per_tap() const { return 0; }
  /// Input-channel block read by output block `out_block` at reduction step `step`.
  [[nodiscard]] virtual llvm::Value* input_block(llvm::IRBuilder<>& builder, llvm::Value* out_block,
                                                 llvm::Value* step) const = 0;
  /// Emits acc += input * weight for one tap; with tap.scales, acc += input * scale * weight.
  virtual void accumulate(llvm::IRBuilder<>& builder, const Tap& tap, const AccumulatorTile& acc) const = 0;
  /// The taps of one kernel row (kw = 0, 1, ... unrolled, the same kh, rows and step): by
  /// default each tap's accumulate in turn. A flavour that pays per input pixel read (a
  /// shuffle) overrides it to read each pixel once for all the taps that use it.
  virtual void accumulate_kernel_row(llvm::IRBuilder<>& builder, const std::vector<Tap>& taps,
                                     const AccumulatorTile& acc) const {
    for (const Tap& tap : taps)
      if (!tap.columns.empty()) accumulate(builder, tap, acc);
  }
};

/// Emits and JIT-compiles the kernel. `kind` names the symbol ("conv2d", "depthwise", ...).
[[nodiscard]] CompiledFunction compile_direct_conv(const DirectConvGeometry& geometry, const ConvReduction& reduction,
                                                   const std::string& kind);

}  // namespace layoutopt::kernels::conv
