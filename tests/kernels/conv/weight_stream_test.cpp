// plan_weight_stream: how a kernel with prefetch_weights shares out the fetch of the next
// output block's weights. Whatever the tiling, the slots of one block must reach every line
// of it, with no more lines per slot than that takes.

#include <doctest/doctest.h>

#include <set>

#include "conv/direct_conv_geometry.h"
#include "layoutopt/kernels/conv2d_desc.h"

namespace {

using namespace layoutopt::kernels;
using layoutopt::kernels::conv::kFloatsPerCacheLine;

Conv2dDesc square_desc(int64_t channels, int64_t size, int64_t kernel) {
  Conv2dDesc d;
  d.in_channels = d.out_channels = channels;
  d.in_h = d.in_w = size;
  d.kernel_h = d.kernel_w = kernel;
  d.pad_top = d.pad_left = d.pad_bottom = d.pad_right = kernel / 2;
  return d;
}

// The properties a kernel relies on, not the formulas: the slots of one block reach every
// line of the next, none fetches more lines than that needs, and the slots scale with the
// fetch opportunities a block offers (taps, outer steps) rather than with its size.
void check_covers(const conv::DirectConvGeometry& g, int64_t outer_steps, int64_t slots_per_tap) {
  const int64_t block_floats = g.in_bn * g.out_bn * g.kernel_h * g.kernel_w * outer_steps;
  const conv::WeightStream s = conv::plan_weight_stream(g, outer_steps, block_floats, slots_per_tap);
  CAPTURE(g.out_block_inner);
  CAPTURE(g.ow_bn);
  CHECK(s.lines * kFloatsPerCacheLine >= block_floats);  // the block's whole span
  CHECK((s.lines - 1) * kFloatsPerCacheLine < block_floats);
  CHECK(s.slots * s.lines_per_slot >= s.lines);          // every line is some slot's
  CHECK((s.lines_per_slot - 1) * s.slots < s.lines);      // and no slot fetches more than needed
  // The slots in order fetch the lines in order, each line some slot's; with more slots than
  // lines the fetch is spread over all of them, so the last sharers fetch too.
  std::set<int64_t> fetched;
  int64_t previous = 0;
  for (int64_t slot = 0; slot < s.slots; ++slot) {
    const int64_t first = s.first_line_of_slot(slot);
    CHECK(first >= previous);
    previous = first;
    for (int64_t i = 0; i < s.lines_per_slot && first + i < s.lines; ++i) fetched.insert(first + i);
  }
  CHECK(static_cast<int64_t>(fetched.size()) == s.lines);
  if (s.slots > s.lines) CHECK(s.first_line_of_slot(s.slots * 3 / 4) >= s.lines * 3 / 4 - 1);
  const conv::WeightStream doubled = conv::plan_weight_stream(g, outer_steps, block_floats, 2 * slots_per_tap);
  CHECK(doubled.slots == 2 * s.slots);
  const conv::WeightStream bigger_block = conv::plan_weight_stream(g, outer_steps, 2 * block_floats, slots_per_tap);
  CHECK(bigger_block.slots == s.slots);
}

}  // namespace

TEST_CASE("weight prefetch slots cover the next block in either work-item order") {
  for (const bool out_block_inner : {false, true})
    for (const int64_t ow_bn : {1, 4, 7}) {
      // ResNet-50's layer4 3x3 conv: 590 KB blocks over few slots (several lines each).
      conv::DirectConvGeometry g = conv::make_geometry(square_desc(512, 7, 3), {256, 32, 1, ow_bn, true, out_block_inner});
      check_covers(g, 2, 8);
      // A small 1x1 conv: fewer lines than slots (one line per slot, spread over them all).
      g = conv::make_geometry(square_desc(16, 28, 1), {16, 16, 2, ow_bn, true, out_block_inner});
      check_covers(g, 1, 16);
    }
}

TEST_CASE("no prefetch slots, no prefetch") {
  const conv::DirectConvGeometry g = conv::make_geometry(square_desc(32, 8, 3), {16, 16, 1, 4, true, false});
  const conv::WeightStream s = conv::plan_weight_stream(g, 2, 16 * 16 * 9 * 2, 0);
  CHECK(s.slots == 0);
  CHECK(s.lines_per_slot == 0);
}

TEST_CASE("with reduction passes each pass fetches its chunk of the next tile, one run per output block") {
  // hrnet's 512 -> 1024 head conv at 7x7 outputs: blocks of 128 input channels, passes of one
  // of the four, tiles of three 16-channel output blocks.
  constexpr int64_t kSteps = 4, kSlotsPerTap = 8, kTileBlocks = 3;
  const int64_t block_floats = 128 * 16 * 9 * kSteps;
  const int64_t chunk = block_floats / kSteps;
  conv::TileShape tiles{128, 16, 1, 7, true, false, true};
  tiles.steps_per_pass = 1;
  tiles.tile_blocks = kTileBlocks;
  const conv::DirectConvGeometry g = conv::make_geometry(square_desc(512, 7, 3), tiles);
  const conv::WeightStream s = conv::plan_weight_stream(g, kSteps, block_floats, kSlotsPerTap);
  CHECK(s.chunk_floats == chunk);
  CHECK(s.lines * kFloatsPerCacheLine == kTileBlocks * chunk);
  CHECK(s.slots == s.sharers * s.column_tiles * 1 * 9 * kSlotsPerTap);  // one step per pass
  CHECK(s.slots * s.lines_per_slot >= s.lines);
  // The lines are exactly each block's chunk: distinct, every one inside a run.
  std::set<int64_t> offsets;
  for (int64_t line = 0; line < s.lines; ++line) {
    const int64_t offset = s.line_offset(line);
    CAPTURE(line);
    CHECK(offset % block_floats < chunk);
    CHECK(offset / block_floats < kTileBlocks);
    offsets.insert(offset);
  }
  CHECK(static_cast<int64_t>(offsets.size()) == s.lines);

  // Passes over tiles of one block: its chunk, contiguous.
  tiles.tile_blocks = 1;
  const conv::WeightStream one_block =
      conv::plan_weight_stream(conv::make_geometry(square_desc(512, 7, 3), tiles), kSteps, block_floats, kSlotsPerTap);
  CHECK(one_block.run_lines == 0);
  CHECK(one_block.lines * kFloatsPerCacheLine == chunk);
  tiles.tile_blocks = kTileBlocks;

  // One pass: the tile's whole blocks, contiguous.
  tiles.steps_per_pass = 0;
  const conv::WeightStream whole =
      conv::plan_weight_stream(conv::make_geometry(square_desc(512, 7, 3), tiles), kSteps, block_floats, kSlotsPerTap);
  CHECK(whole.run_lines == 0);
  CHECK(whole.lines * kFloatsPerCacheLine == kTileBlocks * block_floats);
  CHECK(whole.line_offset(whole.lines - 1) == (whole.lines - 1) * kFloatsPerCacheLine);
}

TEST_CASE("passes that split the steps unevenly, or chunks of partial lines, fetch nothing") {
  conv::TileShape tiles{128, 16, 1, 7, true, false, true};
  tiles.steps_per_pass = 3;  // 4 steps: 3, then 1
  const conv::WeightStream uneven =
      conv::plan_weight_stream(conv::make_geometry(square_desc(512, 7, 3), tiles), 4, 128 * 16 * 9 * 4, 8);
  CHECK(uneven.slots == 0);
  CHECK(uneven.lines_per_slot == 0);
  // 1x1, one input channel by four output channels per step: 8 floats in a pass of two.
  conv::TileShape narrow{1, 4, 1, 4, true, false, true};
  narrow.steps_per_pass = 2;
  const conv::WeightStream partial =
      conv::plan_weight_stream(conv::make_geometry(square_desc(8, 8, 1), narrow), 8, 8 * 4, 1);
  CHECK(partial.lines_per_slot == 0);
}
