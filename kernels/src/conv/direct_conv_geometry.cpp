#include "conv/direct_conv_geometry.h"

#include <algorithm>
#include <cassert>

namespace layoutopt::kernels::conv {

DirectConvGeometry make_geometry(const Conv2dDesc& d, const TileShape& t) {
  // The schedule space only offers channel blocks that divide the channels (TunableOp checks
  // user configs); a remainder here would silently drop channels.
  assert(t.in_bn > 0 && d.in_channels % t.in_bn == 0);
  assert(t.out_bn > 0 && d.out_channels % t.out_bn == 0);
  assert(t.oh_bn > 0 && t.ow_bn > 0);
  DirectConvGeometry g;
  g.batch = d.batch;
  g.in_h = d.in_h, g.in_w = d.in_w, g.out_h = d.out_h(), g.out_w = d.out_w();
  g.kernel_h = d.kernel_h, g.kernel_w = d.kernel_w;
  g.stride_h = d.stride_h, g.stride_w = d.stride_w;
  g.pad_top = d.pad_top, g.pad_left = d.pad_left;
  g.dilation_h = d.dilation_h, g.dilation_w = d.dilation_w;
  g.in_blocks = d.in_channels / t.in_bn, g.in_bn = t.in_bn;
  g.out_blocks = d.out_channels / t.out_bn, g.out_bn = t.out_bn;
  g.store_bn = t.store_bn == 0 ? t.out_bn : t.store_bn;
  assert(d.out_channels % g.store_bn == 0);
  g.load_bn = t.load_bn == 0 ? t.in_bn : t.load_bn;
  assert(d.in_channels % g.load_bn == 0);
  g.load_blocks = d.in_channels / g.load_bn;
  g.oh_bn = t.oh_bn, g.ow_bn = t.ow_bn;
  g.run_blocks = t.run_blocks == 0 ? g.out_blocks : t.run_blocks;
  assert(g.run_blocks > 0 && g.out_blocks % g.run_blocks == 0);
  // The caller clamps the tile to the run (compile_conv2d's tile_blocks).
  assert(t.tile_blocks > 0 && t.tile_blocks <= g.run_blocks);
  g.tile_blocks = t.tile_blocks;
  g.unroll_kw = t.unroll_kw;
  g.out_block_inner = t.out_block_inner;
  g.prefetch_weights = t.prefetch_weights;
  g.prefetch_input = t.prefetch_input;
  g.steps_per_pass = t.steps_per_pass;
  g.epilogue = d.epilogue;
  g.input_scale = d.input_scale;
  g.prologue = d.prologue;
  g.prologue_offset = d.epilogue.bias ? d.out_channels : 0;
  g.groups = d.groups;
  return g;
}

bool DirectConvGeometry::rows_always_valid() const {
  const int64_t last_row_read = (out_h - 1) * stride_h - pad_top + (kernel_h - 1) * dilation_h;
  return pad_top == 0 && last_row_read < in_h;
}

bool DirectConvGeometry::columns_interior(int64_t ow, int64_t width) const {
  // Input columns grow with ow and kw, so the extreme corners decide.
  return input_column(ow, 0) >= 0 && input_column(ow + width - 1, kernel_w - 1) < in_w;
}

std::vector<ColumnSegment> plan_columns(const DirectConvGeometry& g) {
  std::vector<ColumnSegment> segments;
  const int64_t full_tiles = g.out_w / g.ow_bn;
  int64_t tile = 0;
  for (; tile < full_tiles && !g.columns_interior(tile * g.ow_bn, g.ow_bn); ++tile)
    segments.push_back({tile * g.ow_bn, 1, g.ow_bn, false});
  const int64_t interior_begin = tile;
  while (tile < full_tiles && g.columns_interior(tile * g.ow_bn, g.ow_bn)) ++tile;
  if (tile > interior_begin)
    segments.push_back({interior_begin * g.ow_bn, tile - interior_begin, g.ow_bn, true});
  for (; tile < full_tiles; ++tile) segments.push_back({tile * g.ow_bn, 1, g.ow_bn, false});
  const int64_t remainder = g.out_w - full_tiles * g.ow_bn;
  if (remainder > 0) segments.push_back({full_tiles * g.ow_bn, 1, remainder, false});
#ifndef NDEBUG
  // The segments tile the output row exactly once, in order.
  int64_t covered = 0;
  for (const ColumnSegment& segment : segments) {
    assert(segment.first_column == covered);
    covered += segment.tiles * segment.width;
  }
  assert(covered == g.out_w);
#endif
  return segments;
}

WeightStream plan_weight_stream(const DirectConvGeometry& g, int64_t outer_steps, int64_t weights_per_block,
                                int64_t slots_per_tap) {
  WeightStream stream;
  const int64_t steps = g.steps_per_pass > 0 ? std::min(g.steps_per_pass, outer_steps) : outer_steps;
  stream.chunk_floats = weights_per_block / outer_steps * steps;
  if (steps < outer_steps) {
    if (outer_steps % steps != 0 || stream.chunk_floats % kFloatsPerCacheLine != 0) return {};
    if (g.tile_blocks > 1) {  // one block's chunk is contiguous: runs only between blocks
      stream.run_lines = stream.chunk_floats / kFloatsPerCacheLine;
      stream.run_stride = weights_per_block;
    }
  }
  stream.lines = (stream.chunk_floats * g.tile_blocks + kFloatsPerCacheLine - 1) / kFloatsPerCacheLine;
  stream.sharers = g.out_block_inner ? 1 : g.row_tiles();
  stream.column_tiles = (g.out_w + g.ow_bn - 1) / g.ow_bn;
  stream.slots = stream.sharers * stream.column_tiles * steps * g.kernel_h * g.kernel_w * slots_per_tap;
  stream.lines_per_slot = stream.slots == 0 ? 0 : (stream.lines + stream.slots - 1) / stream.slots;
  return stream;
}

namespace {

// FMAs per stride of the ic loop (a stretch, where no longer one is due): large enough to
// hide loop overhead and give the scheduler room, small enough to keep compile time in the
// tens of milliseconds (machine code generation costs ~10 us per IR instruction).
constexpr int64_t kFmasPerStride = 128;
// Up to this many FMAs (over the kernel's columns, which are unrolled) a kernel of one row
// reads a whole run of consecutive channels in one stretch. Why: the CPU's stride prefetcher
// follows each load instruction's addresses, and a block read in two stretches gives every
// broadcast a step of a few floats, then one of a plane: no stride to follow. Kernels of
// several rows step by rows between planes anyway, and their longer bodies ran 20-30% slower
// (docs/design/reduction-passes.md).
constexpr int64_t kFmasPerWholeRun = 512;

// A slot's address arithmetic, and the barrier it is to LLVM's scheduling, need FMAs to hide
// among: slots of one input channel of a 2 x 7-pixel, 32-channel tile (28 FMAs) gained
// nothing with cold weights even spread over the tile's work, and in reduction passes made
// the tile spill (2.4x the time); slots of two channels (56 FMAs) ran 6-10% faster than no
// fetch (docs/design/weight-prefetch.md).
constexpr int64_t kMinFmasPerPrefetchSlot = 48;

}  // namespace

bool prefetch_slot_pays(int64_t prefetch_stride, int64_t tile_accumulators) {
  return prefetch_stride * tile_accumulators >= kMinFmasPerPrefetchSlot;
}

ReductionStretches plan_reduction_stretches(int64_t consecutive_channels, int64_t tile_accumulators, int64_t kernel_h,
                                            int64_t kernel_w) {
  // A stretch reads consecutive floats: it stays inside one stored block, which a stretch
  // starting at a multiple of u does when u divides the run.
  ReductionStretches plan;
  for (int64_t u = 1; u <= consecutive_channels; ++u)
    if (consecutive_channels % u == 0 && u * tile_accumulators <= kFmasPerStride) plan.prefetch_stride = u;
  const bool whole = kernel_h == 1 && consecutive_channels * tile_accumulators * kernel_w <= kFmasPerWholeRun;
  plan.unroll = whole ? consecutive_channels : plan.prefetch_stride;
  return plan;
}

}  // namespace layoutopt::kernels::conv
