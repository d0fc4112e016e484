#include "conv/packed_groups_reduction.h"

#include <llvm/IR/IntrinsicsX86.h>

#include <algorithm>
#include <cassert>
#include <map>
#include <numeric>

#include "jit/control_flow.h"
#include "jit/vector_ops.h"
#include "layoutopt/kernels/host.h"

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

Value* PackedGroupsReduction::spread(llvm::IRBuilder<>& builder, Value* x, int64_t channel, int64_t lanes) const {
  const std::vector<int> mask = group_broadcast_mask(lanes, s_.group_channels, channel);
  if (!spans_128_bit_lanes(s_.group_channels, lanes)) return builder.CreateShuffleVector(x, mask);
  // One vpermps with the mask as its index: LLVM's lowering of the shuffle takes an in-lane
  // and a cross-lane shuffle, and the packed kernels are bound by their shuffles (8-channel
  // groups of 256 channels on 28x28: 0.104 against 0.117 ms, AMD EPYC Zen 5).
  std::vector<llvm::Constant*> indices;
  for (const int lane : mask) indices.push_back(builder.getInt32(lane));
  return builder.CreateIntrinsic(llvm::Intrinsic::x86_avx512_permvar_sf_512, {}, {x, llvm::ConstantVector::get(indices)});
}

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
  accumulate_kernel_row(builder, {tap}, acc);
}

void PackedGroupsReduction::accumulate_kernel_row(llvm::IRBuilder<>& builder, const std::vector<Tap>& taps,
                                                  const AccumulatorTile& acc) const {
  // The (tap, tile column) pairs that read each input pixel of the row, in column order.
  std::map<int64_t, std::vector<std::pair<const Tap*, const TapColumn*>>> readers;
  int64_t width = 0;
  for (const Tap& tap : taps)
    for (const TapColumn& column : tap.columns) {
      readers[column.input_column].push_back({&tap, &column});
      width = std::max(width, column.column + 1);
    }
  if (readers.empty()) return;
  const Tap& first = taps.front();
  const auto& chunks = acc.chunks();
  const auto rows = static_cast<int64_t>(first.rows.size());
  const int64_t accumulators = rows * width * static_cast<int64_t>(chunks.size());
  // Weights kept in registers beside a full tile spill; read from L1 as FMA operands instead,
  // with a fence after each pixel so LLVM does not merge those reads across pixels.
  const HostInfo& host = host_info();
  const auto kernel_w = static_cast<int64_t>(taps.size());
  const bool keep_weights =
      packed_row_keeps_weights(s_.group_channels, kernel_w, host.vector_registers) &&
      accumulators + packed_row_registers(s_.group_channels, kernel_w, host.vector_lanes, host.vector_registers) <=
          host.vector_registers;
  for (size_t c = 0; c < chunks.size(); ++c) {
    const jit::VectorChunk& chunk = chunks[c];
    assert(chunk.lanes % s_.group_channels == 0 && chunk.offset % s_.group_channels == 0);
    Value* scales =
        first.scales == nullptr ? nullptr : jit::load_vector(builder, first.scales, builder.getInt64(chunk.offset), chunk.lanes);
    const jit::VectorPlacement pieces = input_pieces(builder, first, chunk);
    for (int64_t r = 0; r < rows; ++r)
      for (const auto& [input_column, pixel_readers] : readers) {
        Value* x = jit::load_placed(builder, first.rows[static_cast<size_t>(r)],
                                    shifted(builder, pieces, pixel_readers.front().second->offset));
        if (scales != nullptr) x = builder.CreateFMul(x, scales);
        for (int64_t j = 0; j < s_.group_channels; ++j) {
          Value* spread_j = spread(builder, x, j, chunk.lanes);
          for (const auto& [tap, column] : pixel_readers)
            acc.add_product(builder, r, column->column, c, spread_j, weight_vector(builder, *tap, j, chunk));
        }
        if (!keep_weights) jit::emit_compiler_fence(builder);
      }
  }
}

}  // namespace layoutopt::kernels::conv
