// conv2d kernels against the NCHW reference: many schedules per workload, awkward shapes
// (3 input channels, 1x1 and 7x7 kernels, stride 2, asymmetric padding, dilation, widths
// the register tile does not divide, groups) and every epilogue combination.

#include <doctest/doctest.h>

#include <algorithm>

#include "conv/packed_row_registers.h"
#include "kernel_check.h"
#include "layoutopt/kernels/conv2d.h"
#include "layoutopt/kernels/depthwise_conv2d.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/host.h"
#include "layoutopt/kernels/tunable_op.h"
#include "layoutopt/kernels/winograd_conv2d.h"

namespace {

using namespace layoutopt::kernels;
using layoutopt::kernels::testing::BlockedLayouts;
using layoutopt::kernels::testing::square_conv;

void check_schedule(const Conv2dDesc& desc, const Conv2dSchedule& schedule, int ranges = 1) {
  const Conv2dLayouts layouts = conv2d_layouts(desc, schedule);
  testing::check_against_reference(desc, compile_conv2d(desc, schedule), {layouts.input, layouts.weight, layouts.output},
                                   desc.str() + " " + schedule.str(), 7, ranges);
}

// Schedules that cover the code paths: scalar and multi-chunk channel blocks, remainder
// chunks (oc_bn not a multiple of the vector width), tile widths that do and do not divide
// the output width, unrolled and rolled kw, row tiles, both work-item orders, with and
// without weight prefetching. kw unrolling and prefetching alternate rather than doubling the
// list: each (block pair, width) pair still sees one of each; the item order flips per block
// pair, and kw unrolling once more, so prefetching meets both kw choices.
std::vector<Conv2dSchedule> schedules_for(const Conv2dDesc& d) {
  std::vector<Conv2dSchedule> result;
  const auto ic = divisors(d.in_channels_per_group());
  const auto oc = divisors(d.out_channels_per_group());
  const int64_t ow = d.out_w();
  bool unroll = false, oc_inner = false, prefetch = false;
  for (int64_t ic_bn : {ic.front(), ic.back()})
    for (int64_t oc_bn : {oc.front(), oc[oc.size() / 2], oc.back()}) {
      for (int64_t ow_bn : {int64_t{1}, std::min<int64_t>(ow, 3), std::min<int64_t>(ow, 8), ow})
        result.push_back({ic_bn, oc_bn, ow_bn, unroll = !unroll, 1, oc_inner, prefetch = !prefetch});
      unroll = !unroll;
      oc_inner = !oc_inner;
    }
  for (int64_t oh_bn : {2, 3})
    if (oh_bn <= d.out_h())
      result.push_back({ic.back(), oc.back(), std::min<int64_t>(ow, 5), true, oh_bn, oh_bn == 3, oh_bn == 2});
  // Input prefetching changes no result, only where the rows come from: every third schedule
  // fetches the next step's rows (a period prime to the other knobs' alternations).
  for (size_t i = 0; i < result.size(); i += 3) result[i].prefetch_input = true;
  return result;
}

void check_many(const Conv2dDesc& desc) {
  for (const Conv2dSchedule& schedule : schedules_for(desc)) check_schedule(desc, schedule);
}

}  // namespace

TEST_CASE("conv2d 3x3 pad 1 with widths the tile does not divide") { check_many(square_conv(16, 9, 11, 32, 3, 1, 1)); }

TEST_CASE("conv2d first layer: 3 input channels, 7x7 stride 2 pad 3") { check_many(square_conv(3, 19, 17, 16, 7, 2, 3)); }

TEST_CASE("conv2d 1x1 stride 1 and stride 2 with row tiles") {
  check_many(square_conv(32, 7, 10, 48, 1, 1, 0));
  check_many(square_conv(24, 9, 9, 16, 1, 2, 0));
}

TEST_CASE("conv2d odd channel counts and vector remainder chunks") {
  check_many(square_conv(6, 8, 8, 40, 3, 1, 1));  // oc blocks 20, 40: 16 + 4 and 16 + 16 + 8 lanes
  // A 16 + 8-lane block in a tile of 14 pixels (with AVX-512 the 8 lanes compute in a whole
  // vector), in passes (partial sums reloaded into the widened accumulators), with a residual.
  Conv2dDesc d = square_conv(48, 3, 14, 24, 1, 1, 0);
  d.epilogue = Epilogue{true, Activation::Relu, true, Activation::None};
  for (const int64_t chunk : {0, 32}) {
    Conv2dSchedule wide{16, 24, 14, true, 1, true, true};
    wide.reduce_chunk = chunk;
    check_schedule(d, wide);
  }
}

TEST_CASE("conv2d asymmetric padding, stride 2 and dilation") {
  Conv2dDesc d = square_conv(8, 12, 13, 16, 3, 2, 0);
  d.pad_top = 2, d.pad_left = 1, d.pad_bottom = 0, d.pad_right = 3;
  check_many(d);
  Conv2dDesc dilated = square_conv(8, 11, 12, 16, 3, 1, 2);
  dilated.dilation_h = 2, dilated.dilation_w = 3;
  dilated.pad_left = dilated.pad_right = 3;
  check_many(dilated);
}

TEST_CASE("conv2d rectangular kernel larger than part of the input") {
  Conv2dDesc d = square_conv(4, 3, 9, 8, 1, 1, 0);
  d.kernel_h = 5, d.kernel_w = 2, d.pad_top = 2, d.pad_bottom = 2, d.pad_left = 1;
  check_many(d);
}

TEST_CASE("grouped conv2d") {
  Conv2dDesc d = square_conv(16, 8, 9, 32, 3, 1, 1);
  d.groups = 4;  // 4 input and 8 output channels per group
  check_many(d);
  Conv2dDesc strided = square_conv(12, 9, 9, 6, 3, 2, 1);
  strided.groups = 3;
  check_many(strided);
}

TEST_CASE("conv2d with batch > 1 and run_range splitting") {
  Conv2dDesc d = square_conv(8, 6, 7, 16, 3, 1, 1);
  d.batch = 3;
  check_many(d);
  for (int ranges : {2, 5}) {
    check_schedule(d, {8, 16, 4, true, 1, false}, ranges);
    check_schedule(d, {8, 8, 4, true, 2, true}, ranges);
  }
}

TEST_CASE("conv2d every epilogue combination") {
  for (const Epilogue& epilogue : testing::all_epilogues()) {
    Conv2dDesc d = square_conv(8, 7, 9, 24, 3, 1, 1);
    d.epilogue = epilogue;
    check_schedule(d, {4, 24, 4, true, 1});  // 16 + 8 lanes: both chunk kinds
    check_schedule(d, {8, 8, 9, false, 1});
  }
}

TEST_CASE("conv2d wide reduction through relu6 clamping") {
  // A 576-long reduction of [-1, 1] products spreads outputs well past 6, so both relu6
  // bounds are exercised.
  Conv2dDesc d = square_conv(64, 5, 6, 32, 3, 1, 1);
  d.epilogue = {true, Activation::Relu6, true, Activation::Relu};
  check_schedule(d, {16, 32, 6, true, 1});
  check_schedule(d, {64, 16, 4, false, 2});
}

TEST_CASE("the default conv2d tile fits the host's register file") {
  // Accumulators (tile width x vectors per output block) plus the weight vectors and a
  // broadcast must fit, or the default spills: an AVX-512-sized tile ran 2-3x slower on AVX2.
  const HostInfo& host = host_info();
  for (int64_t out_channels : {8, 16, 32, 64, 96}) {
    const Conv2dDesc desc = square_conv(32, 4, 56, out_channels, 3, 1, 1);
    CAPTURE(desc.str());
    const Conv2dSchedule schedule = conv2d_default_schedule(desc);
    const int64_t chunks = host.vectors_spanning(schedule.oc_bn) * schedule.oc_tile_blocks;
    CHECK(schedule.ow_bn * schedule.oh_bn * chunks + chunks + 1 <= host.vector_registers);
    CHECK(schedule.ow_bn >= 4);  // still wide enough to reuse each weight vector
    check_schedule(desc, schedule);
  }
}

TEST_CASE("the default conv2d schedule keeps activations in the default channel block") {
  // What lets a default network run without a single layout transform: every conv reads and
  // stores in default_channel_block, whatever block it computes in.
  Conv2dDesc grouped = square_conv(128, 8, 8, 128, 3, 1, 1);
  grouped.groups = 32;  // 4 channels per group: a 4-lane output block stored in blocks of 16
  for (const Conv2dDesc& desc : {square_conv(64, 7, 7, 256, 1, 1, 0), square_conv(144, 6, 6, 24, 1, 1, 0),
                                 square_conv(3, 12, 12, 64, 7, 2, 3), square_conv(80, 9, 9, 192, 3, 1, 0), grouped}) {
    CAPTURE(desc.str());
    const Conv2dSchedule schedule = conv2d_default_schedule(desc);
    const Conv2dLayouts layouts = conv2d_layouts(desc, schedule);
    CHECK(layouts.input.block_of('C') == default_channel_block(desc.in_channels));
    CHECK(layouts.output.block_of('C') == default_channel_block(desc.out_channels));
    check_schedule(desc, schedule);
  }
}

// Registers a register tile of `vectors` weight vectors over `pixels` pixels holds: its
// accumulators, the weight vectors and one broadcast.
int64_t registers_held(int64_t vectors, int64_t pixels) { return vectors * pixels + vectors + 1; }

TEST_CASE("the default conv2d schedule fills the registers with a tile of one-vector blocks where that wastes no slots") {
  const HostInfo& host = host_info();
  const int64_t lanes = host.vector_lanes;
  // 12 vectors of outputs over 12 x 12 pixels: tiles of 3 x 4 (AVX2) and 4 x 6 (AVX-512)
  // leave no tile partly empty, as two-vector tiles do not either.
  const Conv2dDesc even = square_conv(64, 12, 12, 12 * lanes, 1, 1, 0);
  const Conv2dSchedule schedule = conv2d_default_schedule(even);
  CHECK(schedule.oc_bn == lanes);
  // More vectors per broadcast than a two-vector block (fewer loads per FMA), and the tile
  // still fits the registers.
  const int64_t vectors = schedule.oc_tile_blocks;
  const int64_t pixels = schedule.oh_bn * schedule.ow_bn;
  CHECK(vectors >= 3);
  CHECK(registers_held(vectors, pixels) <= host.vector_registers);
  CHECK(registers_held(vectors, pixels + 1) > host.vector_registers);
  const int64_t two_vector_pixels = (host.vector_registers - 3) / 2;
  CHECK(vectors * pixels * (2 + two_vector_pixels) > 2 * two_vector_pixels * (vectors + pixels));  // FMAs per load
  // The activations keep their block: the tile's blocks are the weights' business.
  CHECK(schedule.stored_block() == default_channel_block(even.out_channels));
  CHECK(schedule.prefetch_weights);  // several tiles: each fetches the next one's weights
  // Output blocks inner where the weights stay cached and the input is larger: 12x12 x 64
  // inputs (36 KB) against 12 vectors of 64 weights (24 KB with AVX2, 48 KB with AVX-512);
  // 56x56 x 64 (800 KB) against 16 KB share input rows; 7x7 x 1024 (200 KB) against 1 MB do not.
  CHECK(schedule.oc_inner == (even.in_channels * 12 * 12 > even.in_channels * even.out_channels));
  CHECK(conv2d_default_schedule(square_conv(64, 56, 56, 64, 1, 1, 0)).oc_inner);
  CHECK_FALSE(conv2d_default_schedule(square_conv(1024, 7, 7, 256, 1, 1, 0)).oc_inner);
  check_schedule(even, schedule);
  const Conv2dDesc large_weights = square_conv(512, 7, 7, 512, 3, 1, 1);  // 9.4 MB
  CHECK_FALSE(conv2d_default_schedule(large_weights).oc_inner);
  CHECK_FALSE(conv2d_default_schedule(square_conv(16, 7, 7, 2 * lanes, 1, 1, 0)).prefetch_weights);  // one tile
  // 17-wide rows (inception's 7x1 convs) in 4-pixel tiles would leave a 1-pixel tile per row:
  // AVX2 keeps two-vector blocks over 6 pixels there (3 tiles of 17 pixels).
  if (lanes == 8) {
    const Conv2dSchedule wide_rows = conv2d_default_schedule(square_conv(128, 17, 17, 128, 3, 1, 1));
    CHECK(wide_rows.oc_bn == 2 * lanes);
    CHECK(wide_rows.oc_tile_blocks == 1);
    CHECK(wide_rows.ow_bn == 6);
  }
  // 56-wide rows: AVX-512's 4 x 6 tile (2 rows of 3) leaves 2% of its slots empty but issues
  // 10 loads per 24 FMAs where two vectors over 14 pixels issue 16 per 28, so it wins there.
  if (lanes == 16) {
    const Conv2dSchedule rows_of_56 = conv2d_default_schedule(square_conv(64, 56, 56, 256, 1, 1, 0));
    CHECK(rows_of_56.oc_bn == lanes);
    CHECK(rows_of_56.oc_tile_blocks == 4);
    CHECK(rows_of_56.oh_bn * rows_of_56.ow_bn == 6);
  }
  // 7x7 maps: 4 x 6 tiles hold 49 pixels in 54 slots, 3 x 7 in 49 (32 blocks in 11 tiles of
  // 3, 33 slots), fewer slots per output FMA; the space offers the default's count.
  if (lanes == 16) {
    const Conv2dDesc seven = square_conv(2048, 7, 7, 512, 1, 1, 0);
    const Conv2dSchedule rows_of_7 = conv2d_default_schedule(seven);
    CHECK(rows_of_7.oc_bn == lanes);
    CHECK(rows_of_7.oc_tile_blocks == 3);
    CHECK(rows_of_7.oh_bn * rows_of_7.ow_bn == 7);
    const std::vector<int64_t> counts = conv2d_space(seven).values("tile_oc_blocks");
    CHECK(std::find(counts.begin(), counts.end(), 3) != counts.end());
    CHECK(std::find(counts.begin(), counts.end(), 4) != counts.end());
    check_schedule(seven, rows_of_7);
  }
  // A 3-channel stem tiles its outputs as any conv does: two vectors of them, or four
  // one-vector blocks by 6 pixels for 64 channels with AVX-512; a block wider than a vector
  // only with 8-lane vectors (a 3 -> 24 stem with AVX-512 computes blocks of 12).
  const Conv2dSchedule stem = conv2d_default_schedule(square_conv(3, 32, 32, 2 * lanes, 3, 2, 1));
  CHECK(stem.oc_bn * stem.oc_tile_blocks == 2 * lanes);
  CHECK(stem.ow_bn == std::min<int64_t>(16, two_vector_pixels));
  check_schedule(square_conv(3, 32, 32, 2 * lanes, 3, 2, 1), stem);
  if (lanes == 16) {
    const Conv2dDesc seven_by_seven = square_conv(3, 64, 64, 64, 7, 2, 3);
    const Conv2dSchedule wide = conv2d_default_schedule(seven_by_seven);
    CHECK(wide.oc_bn == lanes);
    CHECK(wide.oc_tile_blocks == 4);
    CHECK(wide.ow_bn == 6);
    check_schedule(seven_by_seven, wide);
    CHECK(conv2d_default_schedule(square_conv(3, 32, 32, 24, 3, 2, 1)).oc_bn == 12);
  }
  // A 3x3 conv on 7-wide rows, whose space offers taller tiles: the tile fits the registers
  // whichever tiling wins.
  const Conv2dDesc narrow_3x3 = square_conv(4 * lanes, 7, 7, 12 * lanes, 3, 1, 1);
  const Conv2dSchedule tall = conv2d_default_schedule(narrow_3x3);
  const int64_t tall_vectors = tall.oc_tile_blocks * host.vectors_spanning(tall.oc_bn);
  CHECK(registers_held(tall_vectors, tall.oh_bn * tall.ow_bn) <= host.vector_registers);
  check_schedule(narrow_3x3, tall);
}

TEST_CASE("conv2d with silu or sigmoid fused before and after a residual add") {
  // EfficientNet's conv + SiLU and its squeeze-excite gate; the reduction spreads outputs over
  // both of sigmoid's tails.
  Conv2dDesc d = square_conv(16, 6, 7, 24, 3, 1, 1);
  for (const Epilogue& epilogue : {Epilogue{true, Activation::Silu, false, Activation::None},
                                   Epilogue{false, Activation::Relu, true, Activation::Silu},
                                   Epilogue{true, Activation::Sigmoid, false, Activation::None},
                                   Epilogue{true, Activation::None, true, Activation::Sigmoid}}) {
    d.epilogue = epilogue;
    check_schedule(d, {4, 24, 4, true, 1});  // 16 + 8 lanes: both chunk kinds
    check_schedule(d, {16, 8, 7, false, 2});
  }
}

TEST_CASE("conv2d with an input scale: 1x1 projections over channel blocks, tiles and two images") {
  // Squeeze-excite's projection: every schedule family of schedules_for, the scale read per
  // image and input channel block.
  for (const int64_t batch : {1, 2}) {
    Conv2dDesc d = square_conv(32, 7, 10, 48, 1, 1, 0);
    d.batch = batch;
    d.input_scale = true;
    check_many(d);
    Conv2dDesc strided = square_conv(24, 9, 9, 16, 1, 2, 0);
    strided.batch = batch;
    strided.input_scale = true;
    check_many(strided);
  }
}

TEST_CASE("conv2d with an input scale and bias, activation and residual epilogues") {
  Conv2dDesc d = square_conv(16, 6, 7, 24, 1, 1, 0);
  d.batch = 2;
  d.input_scale = true;
  for (const Epilogue& epilogue : {Epilogue{true, Activation::None, true, Activation::None},
                                   Epilogue{true, Activation::Relu6, true, Activation::Silu},
                                   Epilogue{false, Activation::Sigmoid, false, Activation::None}}) {
    d.epilogue = epilogue;
    check_schedule(d, {4, 24, 4, true, 1});  // 16 + 8 lanes: both chunk kinds
    check_schedule(d, {16, 8, 7, false, 2, true, true});
    check_schedule(d, {8, 24, 3, true, 3}, 5);  // run_range splitting
  }
}

// DenseNet's pre-activation batch norm + ReLU read by its 1x1 conv: every schedule family of
// schedules_for, with inputs stored in blocks other than the reduction's (load_bn), flat
// pixel rows, several passes, two images and strides 1 and 2.
TEST_CASE("conv2d with an input prologue: activation(x * scale + shift) over every schedule family") {
  for (const Activation activation : {Activation::Relu, Activation::None, Activation::Relu6}) {
    CAPTURE(to_string(activation));
    Conv2dDesc d = square_conv(32, 7, 10, 48, 1, 1, 0);
    d.batch = 2;
    d.prologue = activation;
    check_many(d);
    Conv2dDesc strided = square_conv(24, 9, 9, 16, 1, 2, 0);
    strided.prologue = activation;
    check_many(strided);
  }
  Conv2dDesc d = square_conv(64, 6, 7, 32, 1, 1, 0);
  d.prologue = Activation::Relu;
  for (const Epilogue& epilogue : {Epilogue{true, Activation::Relu, false, Activation::None},
                                   Epilogue{false, Activation::None, true, Activation::Relu}}) {
    d.epilogue = epilogue;
    Conv2dSchedule schedule{16, 16, 4, true, 2};
    for (const int64_t load_bn : {int64_t{0}, int64_t{8}, int64_t{32}}) {
      schedule.load_bn = load_bn;  // stored blocks smaller, equal and larger than ic_bn
      check_schedule(d, schedule);
    }
    schedule.reduce_chunk = 16;  // four passes over the items, partial sums between them
    check_schedule(d, schedule, 3);
    Conv2dSchedule flat{32, 32, 7, true, 1};
    flat.flat_pixels = true;  // one row of 42 pixels
    check_schedule(d, flat);
  }
}

TEST_CASE("only the direct kernel of an unpadded 1x1 groups-1 conv takes an input prologue") {
  Conv2dDesc one_by_one = square_conv(32, 8, 8, 32, 1, 1, 0);
  one_by_one.prologue = Activation::Relu;
  CHECK_NOTHROW(one_by_one.validate());
  CHECK(one_by_one.bias_floats() == 64);
  one_by_one.epilogue.bias = true;
  CHECK(one_by_one.bias_floats() == 96);
  CHECK(one_by_one.str().find("_pro-relu") != std::string::npos);
  CHECK(takes_input_prologue(OpFamily::conv2d));
  CHECK_FALSE(takes_input_prologue(OpFamily::winograd_conv2d));
  CHECK_FALSE(takes_input_prologue(OpFamily::gemm_conv2d));
  const std::vector<TunableOp> algorithms = TunableOp::conv2d_algorithms(one_by_one);
  REQUIRE(algorithms.size() == 1);
  CHECK(algorithms.front().family() == OpFamily::conv2d);
  CHECK(algorithms.front().buffer_sizes(algorithms.front().default_index()).bias == 96);

  Conv2dDesc three_by_three = square_conv(16, 8, 8, 16, 3, 1, 1);
  three_by_three.prologue = Activation::Relu;
  CHECK_THROWS_WITH_AS(three_by_three.validate(), doctest::Contains("unpadded 1x1"), KernelError);
  CHECK_FALSE(winograd_applicable(three_by_three));
  Conv2dDesc grouped = one_by_one;
  grouped.groups = 2;
  CHECK_THROWS_WITH_AS(grouped.validate(), doctest::Contains("groups 1"), KernelError);
}

TEST_CASE("the direct kernel scales padded, strided and grouped convs too") {
  Conv2dDesc padded = square_conv(8, 9, 11, 16, 3, 2, 1);
  padded.batch = 2;
  padded.input_scale = true;
  check_many(padded);
  Conv2dDesc grouped = square_conv(16, 8, 9, 32, 3, 1, 1);
  grouped.groups = 4;
  grouped.input_scale = true;
  check_many(grouped);
}

TEST_CASE("depthwise and Winograd kernels refuse an input scale; a scaled kernel needs its scale") {
  Conv2dDesc three_by_three = square_conv(16, 8, 8, 16, 3, 1, 1);
  three_by_three.input_scale = true;
  CHECK_FALSE(winograd_applicable(three_by_three));
  CHECK_THROWS_WITH_AS(static_cast<void>(winograd_conv2d_space(three_by_three)), doctest::Contains("no input scale"),
                       KernelError);
  const std::vector<TunableOp> algorithms = TunableOp::conv2d_algorithms(three_by_three);
  REQUIRE(algorithms.size() == 1);
  CHECK(algorithms.front().family() == OpFamily::conv2d);
  CHECK(takes_input_scale(OpFamily::conv2d));
  CHECK_FALSE(takes_input_scale(OpFamily::winograd_conv2d));
  CHECK_FALSE(takes_input_scale(OpFamily::depthwise_conv2d));

  Conv2dDesc depthwise = three_by_three;
  depthwise.groups = 16;
  CHECK_THROWS_WITH_AS(static_cast<void>(compile_depthwise_conv2d(depthwise, {16, 4, 1})),
                       doctest::Contains("no input scale"), KernelError);

  const Kernel kernel = compile_conv2d(three_by_three, {16, 16, 4, true, 1});
  const testing::Problem p = testing::make_problem(three_by_three, 3);
  std::vector<float> output(p.residual.size());
  CHECK_THROWS_WITH_AS(kernel({.input = p.input.data(), .weight = p.weight.data(), .output = output.data()}),
                       doctest::Contains("no scale was passed"), KernelError);
}

TEST_CASE("conv2d stores its output in another channel block than it computes in") {
  // Stored block a multiple of the computed one (the vector goes whole), a divisor (split at
  // stored blocks), neither (split at their gcd, e.g. 16 -> 12 in pieces of 4), plain NCHW;
  // with a residual read in the stored layout, two images and run_range splitting.
  Conv2dDesc d = square_conv(8, 7, 9, 48, 3, 1, 1);
  d.batch = 2;
  d.epilogue = Epilogue{true, Activation::Silu, true, Activation::Relu};
  for (const int64_t oc_bn : {16, 24, 48})
    for (const int64_t store_bn : {1, 4, 6, 12, 16, 48}) {
      Conv2dSchedule schedule{8, oc_bn, 4, true, 1, store_bn % 12 == 0, false, store_bn};
      CHECK(conv2d_layouts(d, schedule).output == layoutopt::layout::Layout::nchwc(store_bn));
      check_schedule(d, schedule, store_bn == 6 ? 3 : 1);
    }
  Conv2dDesc one_by_one = square_conv(16, 6, 6, 40, 1, 1, 0);  // 40 = 16 + 16 + 8 lanes
  check_schedule(one_by_one, {16, 40, 6, true, 2, false, false, 8});
  check_schedule(one_by_one, {16, 8, 6, true, 3, true, false, 20});
}

TEST_CASE("the default conv2d schedule streams 16 MB of 3x3 weights over a small map in wide steps and passes") {
  // hrnet's 512 -> 1024 onto 7x7 (18.9 MB of weights): 128-channel steps, passes of 256,
  // input rows fetched ahead, activations still read in the default block.
  const Conv2dDesc head = square_conv(512, 14, 14, 1024, 3, 2, 1);
  const Conv2dSchedule streaming = conv2d_default_schedule(head);
  if (streaming.oh_bn == 1 && streaming.ow_bn == head.out_w() && streaming.oc_tile_blocks > 1) {
    CHECK(streaming.ic_bn == 128);
    CHECK(streaming.reduce_chunk == 256);
    CHECK(streaming.prefetch_input);
    const Conv2dLayouts layouts = conv2d_layouts(head, streaming);
    CHECK(layouts.input.block_of('C') == default_channel_block(head.in_channels));
    testing::check_against_reference(head, compile_conv2d(head, streaming),
                                     {layouts.input, layouts.weight, layouts.output}, streaming.str(), 11);
  }
  // resnet-50's 512 -> 512 (9.4 MB) keeps one pass of the default block.
  const Conv2dSchedule resnet = conv2d_default_schedule(square_conv(512, 14, 14, 512, 3, 2, 1));
  CHECK(resnet.reduce_chunk == 0);
  CHECK(resnet.ic_bn < 128);
}

TEST_CASE("the default conv2d schedule prefetches input rows for strided convs wider than a pixel") {
  CHECK(conv2d_default_schedule(square_conv(64, 28, 28, 128, 3, 2, 1)).prefetch_input);
  CHECK(conv2d_default_schedule(square_conv(3, 32, 32, 16, 7, 2, 3)).prefetch_input);
  CHECK_FALSE(conv2d_default_schedule(square_conv(64, 28, 28, 128, 3, 1, 1)).prefetch_input);  // stride 1
  CHECK_FALSE(conv2d_default_schedule(square_conv(64, 28, 28, 128, 1, 2, 0)).prefetch_input);  // 1x1
  // Packed groups (ResNeXt's strided 3x3, 4 channels a group) gained nothing clear from it: off by
  // default, but a searched schedule may turn it on and computes the same.
  Conv2dDesc packed = square_conv(128, 14, 14, 128, 3, 2, 1);
  packed.groups = 32;
  Conv2dSchedule packed_default = conv2d_default_schedule(packed);
  if (packed_default.packs_groups(packed)) {
    CHECK_FALSE(packed_default.prefetch_input);
    packed_default.prefetch_input = true;
    check_schedule(packed, packed_default);
  }
  // The knob names the kernel: the schedule string, and the space offers both values.
  Conv2dSchedule s = conv2d_default_schedule(square_conv(64, 28, 28, 128, 3, 2, 1));
  CHECK(s.str().find("_pfi") != std::string::npos);
  s.prefetch_input = false;
  CHECK(s.str().find("_pfi") == std::string::npos);
  // Only strided convs search it: stride-1 ones gained nothing from it.
  CHECK(conv2d_space(square_conv(64, 28, 28, 128, 3, 2, 1)).values("prefetch_input") == std::vector<int64_t>{0, 1});
  CHECK(conv2d_space(square_conv(64, 28, 28, 128, 3, 1, 1)).values("prefetch_input") == std::vector<int64_t>{0});
}

TEST_CASE("conv2d reads its input in another channel block than it reduces over") {
  // Read block a multiple of ic_bn (a reduction block inside one stored block, at a lane
  // offset), a divisor (a reduction block spans stored blocks), neither (runs of their gcd,
  // e.g. 8 in 12: 4 + 4), plain NCHW; 3x3 with padding, a residual, two images and run_range
  // splitting.
  Conv2dDesc d = square_conv(24, 7, 9, 16, 3, 1, 1);
  d.batch = 2;
  d.epilogue = Epilogue{true, Activation::Silu, true, Activation::Relu};
  for (const int64_t ic_bn : {4, 8, 24})
    for (const int64_t load_bn : {1, 2, 4, 8, 12, 24}) {
      if (load_bn == ic_bn) continue;
      Conv2dSchedule schedule{ic_bn, 16, 4, ic_bn != 8, 1, load_bn % 4 == 0, false, 0, load_bn};
      schedule.prefetch_input = load_bn % 2 == 0;
      CHECK(conv2d_layouts(d, schedule).input == layoutopt::layout::Layout::nchwc(load_bn));
      check_schedule(d, schedule, load_bn == 2 ? 3 : 1);
    }
  // Row tiles over padding rows (the zero row spans every stored block a reduction block
  // reads), stored blocks together with a store block, an input scale.
  Conv2dDesc one_by_one = square_conv(32, 6, 6, 40, 1, 1, 1);
  one_by_one.input_scale = true;
  check_schedule(one_by_one, {32, 40, 6, true, 3, false, true, 0, 8});
  check_schedule(one_by_one, {8, 8, 5, true, 2, true, false, 20, 32});
  check_schedule(one_by_one, {16, 20, 4, true, 2, false, false, 0, 32});  // 16 then 16 more lanes of 32
  check_schedule(one_by_one, {8, 20, 4, true, 2, false, false, 0, 32});
  // Groups: a stored block wider than a group's channels.
  Conv2dDesc grouped = square_conv(16, 6, 7, 32, 3, 2, 1);
  grouped.groups = 2;
  check_schedule(grouped, {4, 8, 3, true, 1, false, false, 0, 16});
  check_schedule(grouped, {8, 16, 4, false, 1, true, false, 0, 2});
}

TEST_CASE("a conv2d read block must divide the input channels") {
  const Conv2dDesc d = square_conv(24, 7, 9, 16, 3, 1, 1);
  CHECK_THROWS_WITH_AS(validate_conv2d(d, {8, 16, 4, true, 1, false, false, 0, 16}),
                       doctest::Contains("load_bn must be 0 or divide in_channels = 24"), KernelError);
  const ConfigSpace space = conv2d_space(d);
  CHECK(space.values("load_ic") == std::vector<int64_t>{0, 1, 2, 3, 4, 6, 8, 12, 24});
  CHECK(conv2d_schedule_at(space, space.searched_size() - 1).load_bn == 0);  // search sees load 0 only
}

TEST_CASE("a conv2d store block must divide the output channels") {
  const Conv2dDesc d = square_conv(8, 7, 9, 48, 3, 1, 1);
  CHECK_THROWS_WITH_AS(validate_conv2d(d, {8, 16, 4, true, 1, false, false, 32}),
                       doctest::Contains("store_bn must be 0 or divide out_channels = 48"), KernelError);
  const ConfigSpace space = conv2d_space(d);
  CHECK(space.values("store_oc") == std::vector<int64_t>{0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 48});
  CHECK(space.searched_size() * 11 * 5 == space.size());  // store_oc, then load_ic (0 and 4 divisors of 8)
  CHECK(conv2d_schedule_at(space, space.searched_size() - 1).store_bn == 0);  // search sees store 0 only
  CHECK(conv2d_schedule_at(space, space.searched_size()).store_bn == 1);
}

TEST_CASE("conv2d reduces its input channels in passes, partial sums kept in the output") {
  // Chunks of whole blocks, a chunk rounded up to whole blocks (40 of 16: 3 blocks), the last
  // pass shorter (5 blocks in passes of 2), with padding and row tiles, both item orders, a
  // residual and SiLU, a stored and a read block other than the computed ones, an input
  // scale, groups, two images and run_range splitting (a range's passes cover only its items).
  Conv2dDesc d = square_conv(80, 7, 9, 32, 3, 1, 1);
  d.batch = 2;
  d.epilogue = Epilogue{true, Activation::Silu, true, Activation::Relu};
  for (const int64_t chunk : {16, 32, 40, 64}) {
    Conv2dSchedule schedule{16, 16, 4, true, 2, chunk == 32, true};
    schedule.reduce_chunk = chunk;
    check_schedule(d, schedule, chunk == 40 ? 3 : 1);
  }
  Conv2dSchedule blocks{8, 32, 3, true, 1, false, false, 16, 16};  // store and read in 16s
  blocks.reduce_chunk = 24;
  check_schedule(d, blocks, 2);
  // Each pass fetching its chunk of the next tile of two blocks (runs a block apart), a
  // stride-2 conv whose last tile fetches its own.
  Conv2dDesc strided = square_conv(64, 13, 13, 80, 3, 2, 1);
  for (const int64_t chunk : {16, 32}) {
    Conv2dSchedule tiles{16, 16, 7, true, 1, false, true};
    tiles.oc_tile_blocks = 2;
    tiles.reduce_chunk = chunk;
    check_schedule(strided, tiles, chunk == 16 ? 3 : 1);
  }
  Conv2dDesc scaled = square_conv(64, 6, 6, 40, 1, 1, 0);
  scaled.input_scale = true;
  Conv2dSchedule one_by_one{16, 40, 6, true, 2, false, false, 8};
  one_by_one.reduce_chunk = 32;
  check_schedule(scaled, one_by_one);
  Conv2dDesc grouped = square_conv(64, 6, 7, 32, 3, 2, 1);
  grouped.groups = 2;
  Conv2dSchedule per_group{8, 16, 3, true, 1, true, false};
  per_group.reduce_chunk = 16;
  check_schedule(grouped, per_group);
}

TEST_CASE("only a conv2d reducing in several passes keeps partial sums in its output") {
  // Such a kernel must not write over its residual operand (network lowering reads this).
  const Conv2dDesc d = square_conv(64, 6, 6, 16, 1, 1, 0);
  const auto holds_partial_sums = [&](int64_t chunk) {
    Conv2dSchedule s{16, 16, 6, true, 1};
    s.reduce_chunk = chunk;
    return compile_conv2d(d, s).stages().front().compiled->output_holds_partial_sums;
  };
  CHECK(holds_partial_sums(16));
  CHECK(holds_partial_sums(48));  // 3 blocks, then 1
  CHECK_FALSE(holds_partial_sums(0));
  CHECK_FALSE(holds_partial_sums(64));  // one pass holds every channel
  CHECK_FALSE(holds_partial_sums(128));
}

TEST_CASE("conv2d tiles a 1x1 stride-1 image as one row of pixels, its tiles running across row ends") {
  // Tiles of 2 x 3 and 1 x 5 pixels leave a short last tile on 7x7 (49 pixels); 4 x 7 spans
  // four rows; two images, a residual with SiLU, stored and read blocks other than the
  // computed ones, reductions in passes, an input scale and run_range splitting.
  Conv2dDesc d = square_conv(48, 7, 7, 32, 1, 1, 0);
  d.batch = 2;
  d.epilogue = Epilogue{true, Activation::Silu, true, Activation::Relu};
  REQUIRE(conv2d_flattens(d));
  for (const auto& [oh_bn, ow_bn] : {std::pair<int64_t, int64_t>{2, 3}, {1, 5}, {4, 7}}) {
    Conv2dSchedule schedule{16, 16, ow_bn, true, oh_bn, oh_bn == 1, true};
    schedule.flat_pixels = true;
    check_schedule(d, schedule, oh_bn == 2 ? 3 : 1);
  }
  Conv2dSchedule blocks{8, 32, 6, true, 1, false, false, 16, 16};
  blocks.flat_pixels = true;
  blocks.reduce_chunk = 24;
  check_schedule(d, blocks, 2);
  Conv2dDesc scaled = square_conv(64, 5, 6, 40, 1, 1, 0);
  scaled.input_scale = true;
  Conv2dSchedule one_by_one{16, 40, 4, true, 1, false, false, 8};
  one_by_one.flat_pixels = true;
  check_schedule(scaled, one_by_one);
}

TEST_CASE("conv2d register tiles of several output blocks, a run's last tile narrower") {
  // Five 8-channel blocks in tiles of two (2 + 2 + 1), of a 4-channel block (half vectors) in
  // tiles of three (3 + 3 + 1), as many as a group has (two of two per group, and four asked
  // of two), with a short last row tile, a residual with SiLU, stored and read blocks other
  // than the computed one, passes, a flat image, an input scale, prefetching in both item
  // orders and run_range splitting.
  Conv2dDesc one_by_one = square_conv(24, 7, 7, 40, 1, 1, 0);
  one_by_one.batch = 2;
  one_by_one.epilogue = Epilogue{true, Activation::Silu, true, Activation::Relu};
  for (bool oc_inner : {false, true}) {
    Conv2dSchedule pairs{8, 8, 3, true, 2, oc_inner, true};
    pairs.oc_tile_blocks = 2;
    check_schedule(one_by_one, pairs, oc_inner ? 1 : 3);
  }
  Conv2dSchedule stored{8, 8, 6, true, 1, false, false, 40, 24};
  stored.oc_tile_blocks = 3;
  stored.flat_pixels = true;
  stored.reduce_chunk = 8;
  check_schedule(one_by_one, stored, 2);
  Conv2dDesc padded = square_conv(12, 9, 10, 28, 3, 2, 1);
  padded.input_scale = true;
  Conv2dSchedule halves{4, 4, 4, false, 1, true, true, 28};
  halves.oc_tile_blocks = 3;
  check_schedule(padded, halves);
  Conv2dDesc grouped = square_conv(16, 8, 9, 32, 3, 1, 1);
  grouped.groups = 2;  // 8 input and 16 output channels per group: two blocks of 8
  for (int64_t blocks : {2, 4}) {
    Conv2dSchedule per_group{8, 8, 4, true, 3, blocks == 4, true};
    per_group.oc_tile_blocks = blocks;
    check_schedule(grouped, per_group);
  }
  Conv2dSchedule none{8, 8, 4, true, 1};
  none.oc_tile_blocks = 0;
  CHECK_THROWS_AS((void)compile_conv2d(one_by_one, none), KernelError);
  // Every count where one-vector blocks are the widest whole-vector blocks that divide the
  // channels: five vectors (up to four blocks per tile), three (up to three); where wider
  // blocks divide them, one block and the register-filling tile (more than two of them).
  const int64_t lanes = host_info().vector_lanes;
  CHECK(conv2d_space(square_conv(16, 8, 8, 5 * lanes, 1, 1, 0)).values("tile_oc_blocks") ==
        std::vector<int64_t>{1, 2, 3, 4});
  CHECK(conv2d_space(square_conv(16, 8, 8, 3 * lanes, 1, 1, 0)).values("tile_oc_blocks") ==
        std::vector<int64_t>{1, 2, 3});
  const std::vector<int64_t> eight = conv2d_space(square_conv(16, 8, 8, 8 * lanes, 1, 1, 0)).values("tile_oc_blocks");
  REQUIRE(eight.size() == 2);
  CHECK(eight[0] == 1);
  CHECK(eight[1] >= 3);
  CHECK(conv2d_space(square_conv(16, 8, 8, 2 * lanes, 1, 1, 0)).values("tile_oc_blocks") == std::vector<int64_t>{1});
  CHECK(conv2d_space(square_conv(16, 8, 8, 3, 1, 1, 0)).values("tile_oc_blocks") == std::vector<int64_t>{1});
}

TEST_CASE("the default conv2d schedule tiles several one-vector blocks where two-vector blocks do not divide") {
  const HostInfo& host = host_info();
  const int64_t lanes = host.vector_lanes;
  const Conv2dDesc odd_vectors = square_conv(4 * lanes, 14, 14, 5 * lanes, 1, 1, 0);  // regnet's 440 = 55 x 8
  const Conv2dSchedule s = conv2d_default_schedule(odd_vectors);
  CHECK(s.oc_bn == lanes);
  CHECK(s.oc_tile_blocks >= 2);  // two or three vectors per broadcast (AVX2: 3 + 2 over 2 x 2 pixels)
  if (lanes == 8) CHECK(s.oc_tile_blocks == 3);
  CHECK(registers_held(s.oc_tile_blocks, s.oh_bn * s.ow_bn) <= host.vector_registers);
  CHECK(s.prefetch_weights);  // two tiles: each fetches the next one's weights
  check_schedule(odd_vectors, s);
  // Four vectors: two tiles of two on AVX2 (two vectors per tile); one tile of four over 2 x 3
  // pixels on AVX-512, which leaves 7% of its slots empty on 14x14 but loads less per FMA.
  CHECK(conv2d_default_schedule(square_conv(4 * lanes, 14, 14, 4 * lanes, 1, 1, 0)).oc_tile_blocks ==
        (host.vector_registers >= 32 ? 4 : 1));
  CHECK(conv2d_default_schedule(square_conv(4 * lanes, 14, 14, lanes, 1, 1, 0)).oc_tile_blocks == 1);  // one block
  Conv2dDesc grouped = square_conv(128, 8, 8, 128, 3, 1, 1);
  grouped.groups = 32;  // one 4-channel block per group: nothing to tile together
  CHECK(conv2d_default_schedule(grouped).oc_tile_blocks == 1);
}

TEST_CASE("only a 1x1 stride-1 unpadded conv2d tiles its image as one row") {
  const Conv2dDesc one_by_one = square_conv(32, 7, 7, 32, 1, 1, 0);
  for (const Conv2dDesc& desc : {square_conv(32, 7, 7, 32, 3, 1, 1), square_conv(32, 8, 8, 32, 1, 2, 0),
                                 square_conv(32, 7, 7, 32, 1, 1, 1)}) {
    CAPTURE(desc.str());
    CHECK_FALSE(conv2d_flattens(desc));
    Conv2dSchedule flat{16, 16, 3, true, 1};
    flat.flat_pixels = true;
    CHECK_THROWS_AS((void)compile_conv2d(desc, flat), KernelError);
    CHECK(conv2d_space(desc).values("flat_pixels") == std::vector<int64_t>{0});
  }
  CHECK(conv2d_space(one_by_one).values("flat_pixels") == std::vector<int64_t>{0, 1});
}

TEST_CASE("the default conv2d schedule tiles 1x1 images as one row where that leaves a fifth fewer tiles") {
  const auto ceil_div = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
  const int64_t lanes = host_info().vector_lanes;
  const Conv2dDesc narrow = square_conv(64, 7, 7, 32 * lanes, 1, 1, 0);  // 16 output blocks
  const Conv2dSchedule s = conv2d_default_schedule(narrow);
  const int64_t row_tiles = ceil_div(7, s.oh_bn) * ceil_div(7, s.ow_bn);
  const int64_t flat_tiles = ceil_div(49, s.oh_bn * s.ow_bn);
  CHECK(s.flat_pixels == (5 * flat_tiles <= 4 * row_tiles));
  if (lanes == 8) CHECK(s.flat_pixels);  // AVX2: 9 tiles of 6 pixels, not 12 of 2 x 3
  check_schedule(narrow, s);
  // Fewer than 16 work items (tiles of output blocks) flatten only in a multiple of 8, which
  // teams of 1, 2, 4 and 8 threads share out evenly: 8 do, 5 and 12 do not. With AVX-512, 256
  // channels keep 2 x 7 tiles in rows (4 tiles, flat no fewer).
  for (const int64_t vectors : {int64_t{8}, int64_t{16}, int64_t{20}, int64_t{32}}) {
    const Conv2dSchedule each = conv2d_default_schedule(square_conv(64, 7, 7, vectors * lanes, 1, 1, 0));
    const int64_t items = ceil_div(vectors * lanes / each.oc_bn, each.oc_tile_blocks);
    CAPTURE(vectors);
    if (each.flat_pixels) CHECK((items >= 16 || items % 8 == 0));
  }
  if (lanes == 8) CHECK(conv2d_default_schedule(square_conv(64, 7, 7, 16 * lanes, 1, 1, 0)).flat_pixels);
  CHECK_FALSE(conv2d_default_schedule(square_conv(64, 7, 7, 10 * lanes, 1, 1, 0)).flat_pixels);
  CHECK_FALSE(conv2d_default_schedule(square_conv(64, 7, 7, 24 * lanes, 1, 1, 0)).flat_pixels);
  // 14x14 with 2 x 3 tiles: 33 tiles flat against 35, not worth the rows' items.
  if (lanes == 8) CHECK_FALSE(conv2d_default_schedule(square_conv(64, 14, 14, 32 * lanes, 1, 1, 0)).flat_pixels);
  CHECK_FALSE(conv2d_default_schedule(square_conv(64, 7, 7, 32 * lanes, 3, 1, 1)).flat_pixels);
}

TEST_CASE("the default conv2d schedule loops over kernel columns where a group's vector of channels is one stretch") {
  // AVX2: 8 channels by a 6-pixel tile are one straight stretch per tap; with AVX-512, 16
  // channels by 10 pixels take two stretches, and the columns stay unrolled.
  const int64_t lanes = host_info().vector_lanes;
  Conv2dDesc one_vector = square_conv(4 * lanes, 10, 10, 4 * lanes, 3, 1, 1);
  one_vector.groups = 4;
  const Conv2dSchedule s = conv2d_default_schedule(one_vector);
  if (lanes == 8) CHECK_FALSE(s.unroll_kw);
  check_schedule(one_vector, s);  // border tiles still unroll: both paths in one kernel
  Conv2dDesc strided = square_conv(4 * lanes, 11, 11, 4 * lanes, 3, 2, 1);
  strided.groups = 4;
  const Conv2dSchedule strided_schedule = conv2d_default_schedule(strided);
  if (lanes == 8) CHECK_FALSE(strided_schedule.unroll_kw);
  check_schedule(strided, strided_schedule);
  Conv2dDesc half_vector = square_conv(4 * lanes, 10, 10, 4 * lanes, 3, 1, 1);
  half_vector.groups = 8;  // half a vector per group: the columns stay unrolled
  CHECK(conv2d_default_schedule(half_vector).unroll_kw);
  Conv2dDesc two_vectors = square_conv(4 * lanes, 10, 10, 4 * lanes, 3, 1, 1);
  two_vectors.groups = 2;
  CHECK(conv2d_default_schedule(two_vectors).unroll_kw);
  CHECK(conv2d_default_schedule(square_conv(4 * lanes, 10, 10, 4 * lanes, 3, 1, 1)).unroll_kw);  // not grouped
}

TEST_CASE("conv2d packs groups narrower than a vector into full blocks") {
  // ResNeXt's shape in small: groups of 4 channels, blocks of 2, 4 and 8 groups (8, 16 and 32
  // channels: one chunk, a whole AVX-512 vector, two vectors); tiles that do and do not
  // divide the width, rolled and unrolled kernel columns (the shuffles shared across taps),
  // row tiles, both item orders, stride 2, a residual, an input scale, two images.
  Conv2dDesc d = square_conv(64, 9, 11, 64, 3, 1, 1);
  d.groups = 16;
  d.batch = 2;
  d.epilogue = Epilogue{true, Activation::Relu, true, Activation::None};
  for (const int64_t block : {8, 16, 32})
    for (const int64_t ow_bn : {1, 4, 11}) {
      const Conv2dSchedule schedule{4, block, ow_bn, ow_bn != 4, ow_bn == 1 ? 2 : 1, block == 16};
      REQUIRE(schedule.packs_groups(d));
      CHECK(conv2d_layouts(d, schedule).input == layoutopt::layout::Layout::nchwc(block));
      CHECK(conv2d_layouts(d, schedule).weight == layoutopt::layout::Layout::oihwio(4, block));
      check_schedule(d, schedule, ow_bn == 4 ? 3 : 1);
    }
  Conv2dDesc strided = square_conv(32, 12, 13, 32, 3, 2, 1);
  strided.groups = 4;  // 8 channels a group
  strided.input_scale = true;
  check_schedule(strided, {8, 16, 7, true, 1});
  check_schedule(strided, {8, 32, 3, false, 2, true});
  // A kernel row's taps read each pixel once: dilated taps share pixels two columns apart.
  Conv2dDesc dilated = square_conv(32, 12, 13, 32, 3, 1, 2);
  dilated.groups = 4;
  dilated.dilation_h = dilated.dilation_w = 2;
  check_schedule(dilated, {8, 16, 5, true, 1});
  check_schedule(dilated, {8, 32, 13, true, 1, true});
  // Weights in input blocks narrower than a group; read from a wider stored block, from
  // narrower ones (runs of 8, 4 and 2 channels, and 8 out of 24-channel blocks), stored in a
  // narrower one; 1x1 as one row of pixels.
  check_schedule(d, {2, 16, 4, true, 1});
  check_schedule(d, {1, 8, 4, false, 1, true});
  check_schedule(d, {4, 16, 5, true, 1, false, false, 8, 32});
  for (const int64_t load_bn : {8, 4, 2})
    check_schedule(d, {4, 16, 5, load_bn != 4, 1, load_bn == 2, false, 0, load_bn}, load_bn == 4 ? 3 : 1);
  Conv2dDesc twelves = square_conv(48, 6, 7, 48, 3, 1, 1);
  twelves.groups = 12;
  twelves.input_scale = true;
  check_schedule(twelves, {4, 16, 4, true, 1, false, false, 0, 24});
  Conv2dDesc one_by_one = square_conv(48, 5, 7, 48, 1, 1, 0);
  one_by_one.groups = 24;  // 2 channels a group, blocks of 12: 6 groups
  check_schedule(one_by_one, {2, 12, 6, true, 2, false, false, 0, 0, 0, true});
  Conv2dDesc threes = square_conv(36, 6, 6, 36, 3, 1, 1);
  threes.groups = 12;
  // Four groups of 3 where a vector holds them (AVX-512), two where 8 lanes would split the third.
  check_schedule(threes, {3, host_info().vector_lanes >= 12 ? 12 : 6, 6, true, 1});
}

TEST_CASE("packed groups: the space offers blocks of whole groups up to a vector, and validation names what is wrong") {
  Conv2dDesc d = square_conv(128, 14, 14, 128, 3, 1, 1);
  d.groups = 32;
  const int64_t lanes = host_info().vector_lanes;
  std::vector<int64_t> expected{1, 2, 4};
  for (int64_t block = 8; block <= lanes; block *= 2) expected.push_back(block);
  CHECK(conv2d_space(d).values("tile_oc") == expected);
  CHECK_THROWS_WITH_AS(validate_conv2d(d, {4, 12, 4, true, 1}), doctest::Contains("must hold whole groups of 4 channels"),
                       KernelError);
  Conv2dDesc widening = square_conv(64, 14, 14, 128, 3, 1, 1);
  widening.groups = 32;  // 2 input and 4 output channels a group
  CHECK_THROWS_WITH_AS(validate_conv2d(widening, {2, 8, 4, true, 1}),
                       doctest::Contains("only where a group has as many input as output channels"), KernelError);
  CHECK(conv2d_space(widening).values("tile_oc") == std::vector<int64_t>{1, 2, 4});
  Conv2dDesc threes = square_conv(96, 6, 6, 96, 3, 1, 1);
  threes.groups = 32;
  int64_t straddling = 3 * (lanes / 3 + 1);  // whole groups past a vector: 24 with 16 lanes, 12 with 8
  while (96 % straddling != 0) straddling += 3;
  CHECK_THROWS_WITH_AS(validate_conv2d(threes, {3, straddling, 4, true, 1}),
                       doctest::Contains("would straddle two of the host's vectors"), KernelError);
}

TEST_CASE("the default conv2d schedule packs narrow groups into the activation block") {
  // Groups of at most a quarter vector, or half a vector where half vectors run at half rate.
  const int64_t lanes = host_info().vector_lanes;
  const int64_t registers = host_info().vector_registers;
  const int64_t groups_per_vector = host_info().half_vectors_full_rate ? 4 : 2;
  for (const int64_t channels : {int64_t{4}, int64_t{8}}) {
    // ResNeXt-50's first and second stages: 4 and 8 channels a group.
    const int64_t width = channels == 4 ? 56 : 28;
    Conv2dDesc d = square_conv(32 * channels, width, width, 32 * channels, 3, 1, 1);
    d.groups = 32;
    const Conv2dSchedule s = conv2d_default_schedule(d);
    CAPTURE(channels);
    if (groups_per_vector * channels > lanes) {
      CHECK_FALSE(s.packs_groups(d));
      continue;
    }
    CHECK(s.packs_groups(d));
    // Blocks of packed groups span at most a vector (8 of AVX2's lanes, where the activation
    // block is 16), and the conv reads and stores the activation block all the same.
    CHECK(s.oc_bn == std::min(default_channel_block(d.out_channels), lanes));
    CHECK(s.ic_bn == channels);
    CHECK(s.unroll_kw);  // a kernel row's taps share each pixel's shuffles
    CHECK(conv2d_layouts(d, s).input == layoutopt::layout::Layout::nchwc(default_channel_block(d.in_channels)));
    CHECK(conv2d_layouts(d, s).output == layoutopt::layout::Layout::nchwc(default_channel_block(d.out_channels)));
    CHECK(s.oh_bn == 1);
    // One row in even tiles whose accumulators fit beside what the kernel row keeps.
    CHECK(width % s.ow_bn == 0);
    CHECK(s.ow_bn + conv::packed_row_registers(channels, 3, lanes, registers) <= registers);
    CHECK(2 * s.ow_bn + conv::packed_row_registers(channels, 3, lanes, registers) > registers);
    Conv2dDesc small = square_conv(4 * channels, 9, 11, 4 * channels, 3, 1, 1);
    small.groups = 4;
    check_schedule(small, conv2d_default_schedule(small));
  }
  // The kernel row keeps 4-channel groups' 12 weight vectors in registers, not 8-channel ones' 24.
  CHECK(conv::packed_row_keeps_weights(4, 3, 32));
  CHECK_FALSE(conv::packed_row_keeps_weights(8, 3, 32));
}
