#include "conv/packed_groups_reduction.h"

#include <cassert>

#include "jit/vector_ops.h"

namespace layoutopt::kernels::conv {

namespace {

// The shuffle that puts channel `channel` of each group of `group` lanes into all of the
// group's lanes (vpermilps within 128-bit lanes for 4-channel groups).
std::vector<int> group_broadcast_mask(int64_t lanes, int64_t group, int64_t channel) {
  std::vector<int> mask;
  for (int64_t lane = 0; lane < lanes; ++lane) mask.push_back(static_cast<int>(lane / group * group + channel));
  return mask;
}

}  // namespace

void PackedGroupsReduction::accumulate(llvm::IRBuilder<>& builder, const Tap& tap, const AccumulatorTile& acc) const {
  llvm::Value* tap_index = builder.CreateNSWAdd(
      builder.CreateNSWMul(builder.CreateNSWAdd(builder.CreateNSWMul(tap.out_block, builder.getInt64(kernel_h_)), tap.kh),
                           builder.getInt64(kernel_w_)),
      tap.kw);
  llvm::Value* weight_offset = builder.CreateNSWMul(tap_index, builder.getInt64(group_channels_ * block_));
  const auto& chunks = acc.chunks();
  for (size_t c = 0; c < chunks.size(); ++c) {
    const jit::VectorChunk& chunk = chunks[c];
    assert(chunk.lanes % group_channels_ == 0 && chunk.offset % group_channels_ == 0);
    llvm::Value* lane_offset = builder.getInt64(chunk.offset);
    std::vector<llvm::Value*> weights;
    for (int64_t j = 0; j < group_channels_; ++j)
      weights.push_back(jit::load_vector(
          builder, tap.weight, builder.CreateNSWAdd(weight_offset, builder.getInt64(j * block_ + chunk.offset)),
          chunk.lanes));
    llvm::Value* scales = tap.scales == nullptr ? nullptr : jit::load_vector(builder, tap.scales, lane_offset, chunk.lanes);
    for (size_t r = 0; r < tap.rows.size(); ++r)
      for (const TapColumn& column : tap.columns) {
        llvm::Value* x =
            jit::load_vector(builder, tap.rows[r], builder.CreateNSWAdd(column.offset, lane_offset), chunk.lanes);
        if (scales != nullptr) x = builder.CreateFMul(x, scales);
        for (int64_t j = 0; j < group_channels_; ++j) {
          llvm::Value* spread = builder.CreateShuffleVector(x, group_broadcast_mask(chunk.lanes, group_channels_, j));
          acc.add_product(builder, static_cast<int64_t>(r), column.column, c, spread, weights[static_cast<size_t>(j)]);
        }
      }
  }
}

}  // namespace layoutopt::kernels::conv
