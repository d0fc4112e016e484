#include "conv/packed_groups_reduction.h"

#include <cassert>
#include <numeric>

#include "jit/vector_ops.h"

namespace layoutopt::kernels::conv {

namespace {

using llvm::Value;

// The shuffle that puts channel `channel` of each group of `group` lanes into all of the
// group's lanes (vpermilps within 128-bit lanes for 4-channel groups).
std::vector<int> group_broadcast_mask(int64_t lanes, int64_t group, int64_t channel) {
  std::vector<int> mask;
  for (int64_t lane = 0; lane < lanes; ++lane) mask.push_back(static_cast<int>(lane / group * group + channel));
  return mask;
}

// Offsets `offsets` moved by `by` (each piece of a vector read at another pixel).
jit::VectorPlacement shifted(llvm::IRBuilder<>& builder, jit::VectorPlacement pieces, Value* by) {
  for (jit::VectorPiece& piece : pieces) piece.offset = builder.CreateNSWAdd(piece.offset, by);
  return pieces;
}

}  // namespace

jit::VectorPlacement PackedGroupsReduction::input_pieces(llvm::IRBuilder<>& builder, const Tap& tap,
                                                         const jit::VectorChunk& chunk) const {
  if (s_.load_bn == 0) return jit::contiguous(builder.getInt64(chunk.offset), chunk.lanes);
  // Runs of a length dividing the stored block, the block and the chunk's lanes and offset
  // never straddle a stored block: each starts at a multiple of its length.
  const int64_t run = std::gcd(std::gcd(s_.load_bn, s_.block), std::gcd(chunk.lanes, chunk.offset));
  jit::VectorPlacement pieces;
  for (int64_t lane = 0; lane < chunk.lanes; lane += run) {
    Value* channel = builder.CreateNSWAdd(tap.first_channel, builder.getInt64(chunk.offset + lane));
    Value* stored_block = builder.CreateUDiv(channel, builder.getInt64(s_.load_bn));
    Value* offset = builder.CreateNSWAdd(builder.CreateNSWMul(stored_block, builder.getInt64(s_.load_plane)),
                                         builder.CreateURem(channel, builder.getInt64(s_.load_bn)));
    pieces.push_back({lane, run, offset});
  }
  return pieces;
}

Value* PackedGroupsReduction::weight_vector(llvm::IRBuilder<>& builder, const Tap& tap, int64_t channel,
                                            const jit::VectorChunk& chunk) const {
  // OIHW[ic_bn]i[block]o: [out block][in block][kh][kw][ic_bn][block].
  const int64_t in_blocks = s_.group_channels / s_.ic_bn;
  Value* in_block =
      builder.CreateNSWAdd(builder.CreateNSWMul(tap.out_block, builder.getInt64(in_blocks)), builder.getInt64(channel / s_.ic_bn));
  Value* tap_index = builder.CreateNSWAdd(
      builder.CreateNSWMul(builder.CreateNSWAdd(builder.CreateNSWMul(in_block, builder.getInt64(s_.kernel_h)), tap.kh),
                           builder.getInt64(s_.kernel_w)),
      tap.kw);
  Value* offset = builder.CreateNSWAdd(builder.CreateNSWMul(tap_index, builder.getInt64(s_.ic_bn * s_.block)),
                                       builder.getInt64(channel % s_.ic_bn * s_.block + chunk.offset));
  return jit::load_vector(builder, tap.weight, offset, chunk.lanes);
}

void PackedGroupsReduction::accumulate(llvm::IRBuilder<>& builder, const Tap& tap, const AccumulatorTile& acc) const {
  const auto& chunks = acc.chunks();
  for (size_t c = 0; c < chunks.size(); ++c) {
    const jit::VectorChunk& chunk = chunks[c];
    assert(chunk.lanes % s_.group_channels == 0 && chunk.offset % s_.group_channels == 0);
    std::vector<Value*> weights;
    for (int64_t j = 0; j < s_.group_channels; ++j) weights.push_back(weight_vector(builder, tap, j, chunk));
    Value* scales =
        tap.scales == nullptr ? nullptr : jit::load_vector(builder, tap.scales, builder.getInt64(chunk.offset), chunk.lanes);
    const jit::VectorPlacement pieces = input_pieces(builder, tap, chunk);
    for (size_t r = 0; r < tap.rows.size(); ++r)
      for (const TapColumn& column : tap.columns) {
        Value* x = jit::load_placed(builder, tap.rows[r], shifted(builder, pieces, column.offset));
        if (scales != nullptr) x = builder.CreateFMul(x, scales);
        for (int64_t j = 0; j < s_.group_channels; ++j) {
          Value* spread = builder.CreateShuffleVector(x, group_broadcast_mask(chunk.lanes, s_.group_channels, j));
          acc.add_product(builder, static_cast<int64_t>(r), column.column, c, spread, weights[static_cast<size_t>(j)]);
        }
      }
  }
}

}  // namespace layoutopt::kernels::conv
