#include "conv/blocked_reduction.h"

#include <numeric>

#include "jit/control_flow.h"

namespace layoutopt::kernels::conv {

llvm::Value* BlockedReduction::input_block(llvm::IRBuilder<>& builder, llvm::Value* out_block,
                                           llvm::Value* step) const {
  if (s_.groups == 1) return step;
  llvm::Value* group = builder.CreateUDiv(out_block, builder.getInt64(s_.out_blocks_per_group));
  return builder.CreateNSWAdd(builder.CreateNSWMul(group, builder.getInt64(s_.in_blocks_per_group)), step);
}

int64_t BlockedReduction::consecutive_channels() const {
  return s_.load_bn == 0 ? s_.ic_bn : std::gcd(s_.ic_bn, s_.load_bn);
}

int64_t BlockedReduction::prefetch_slots_per_tap() const {
  const int64_t stride = stretches().prefetch_stride;
  return prefetch_slot_pays(stride, s_.tile_accumulators) ? s_.ic_bn / stride : 0;
}

ReductionStretches BlockedReduction::stretches() const {
  return plan_reduction_stretches(consecutive_channels(), s_.tile_accumulators, s_.kernel_h, s_.kernel_w);
}

void BlockedReduction::accumulate(llvm::IRBuilder<>& builder, const Tap& tap, const AccumulatorTile& acc) const {
  // Weights of (out_block, step, kh, kw): a contiguous ic_bn x oc_bn panel (the tile's first
  // block's; accumulate_channel finds the others').
  llvm::Value* panel = builder.CreateNSWAdd(
      builder.CreateNSWMul(builder.CreateNSWAdd(builder.CreateNSWMul(tap.out_block, builder.getInt64(s_.in_blocks_per_group)),
                                                tap.step),
                           builder.getInt64(s_.kernel_h)),
      tap.kh);
  panel = builder.CreateNSWAdd(builder.CreateNSWMul(panel, builder.getInt64(s_.kernel_w)), tap.kw);
  llvm::Value* weights = builder.CreateInBoundsGEP(builder.getFloatTy(), tap.weight,
                                                   builder.CreateNSWMul(panel, builder.getInt64(s_.ic_bn * s_.oc_bn)));
  // Taps unrolled one after another in straight-line code read some input values twice (a
  // column's pixel at kw is the next column's at kw - stride), and LLVM would keep such
  // broadcasts in registers from one tap to the next: beside a tile that fills the registers
  // that spills (a 3-channel 7x7 stride-2 stem in 2 x 12 tiles: 377 spills, 1.9x the time).
  // Each tap starts afresh instead; the weight prefetches, which LLVM moves no load across
  // either, used to do this by accident (docs/design/default-schedules.md).
  jit::emit_compiler_fence(builder);
  const ReductionStretches plan = stretches();
  const int64_t unroll = plan.unroll;
  const int64_t stride = plan.prefetch_stride;
  jit::emit_loop(
      builder, 0, s_.ic_bn, unroll,
      [&](llvm::Value* ic0) {
        llvm::Value* input_offset = input_channel_offset(builder, tap, ic0);
        jit::emit_unrolled(builder, 0, unroll, [&](llvm::Value* u) {
          llvm::Value* ic = builder.CreateNSWAdd(ic0, u);
          // Prefetches every `stride` channels however long the stretch: in one burst they
          // would stall on the line-fill buffers (docs/design/weight-prefetch.md).
          if (llvm::cast<llvm::ConstantInt>(u)->getSExtValue() % stride == 0)
            tap.prefetch.emit(builder, tap.weight, builder.CreateUDiv(ic, builder.getInt64(stride)));
          accumulate_channel(builder, tap, acc, weights, ic, builder.CreateNSWAdd(input_offset, u));
        });
      },
      "ic_inner");
}

llvm::Value* BlockedReduction::input_channel_offset(llvm::IRBuilder<>& builder, const Tap& tap, llvm::Value* ic) const {
  if (s_.load_bn == 0) return ic;
  llvm::Value* channel = builder.CreateNSWAdd(tap.first_channel, ic);
  llvm::Value* stored_block = builder.CreateUDiv(channel, builder.getInt64(s_.load_bn));
  return builder.CreateNSWAdd(builder.CreateNSWMul(stored_block, builder.getInt64(s_.load_plane)),
                              builder.CreateURem(channel, builder.getInt64(s_.load_bn)));
}

void BlockedReduction::accumulate_channel(llvm::IRBuilder<>& builder, const Tap& tap, const AccumulatorTile& acc,
                                          llvm::Value* weights, llvm::Value* ic, llvm::Value* input_offset) const {
  // The tile's first `tap.blocks` output blocks: each block's panel lies
  // weights_per_out_block() floats after the one before.
  const std::vector<jit::VectorChunk> chunks(acc.chunks().begin(),
                                             acc.chunks().begin() + static_cast<std::ptrdiff_t>(
                                                                        acc.chunks_below(tap.blocks * s_.oc_bn)));
  llvm::Value* row_offset = builder.CreateNSWMul(ic, builder.getInt64(s_.oc_bn));
  std::vector<llvm::Value*> weight_vectors;
  for (const jit::VectorChunk& chunk : chunks) {
    const int64_t panel = chunk.offset / s_.oc_bn * weights_per_out_block();
    llvm::Value* offset = builder.CreateNSWAdd(row_offset, builder.getInt64(panel + chunk.offset % s_.oc_bn));
    llvm::Value* w = jit::load_vector(builder, weights, offset, chunk.lanes);
    // conv(x * s) = sum (x * s[ic]) * w = sum x * (s[ic] * w): one multiply per weight
    // vector, shared by every pixel of the register tile.
    if (tap.scales != nullptr) w = builder.CreateFMul(w, jit::broadcast(builder, tap.scales, ic, chunk.lanes));
    weight_vectors.push_back(w);
  }
  for (size_t r = 0; r < tap.rows.size(); ++r)
    for (const TapColumn& column : tap.columns) {
      llvm::Value* offset = builder.CreateNSWAdd(column.offset, input_offset);
      for (size_t c = 0; c < chunks.size(); ++c) {
        llvm::Value* x = jit::broadcast(builder, tap.rows[r], offset, chunks[c].lanes);
        acc.add_product(builder, static_cast<int64_t>(r), column.column, c, x, weight_vectors[c]);
      }
    }
}

}  // namespace layoutopt::kernels::conv
