// Winograd conv2d against the NCHW reference: both tile sizes, images the tiles do not divide
// (partial last tiles in both directions), no / asymmetric padding, channel blocks with
// remainder vector chunks, batch > 1, every epilogue, bands of tile rows (run through all
// stages per thread) that do and do not divide the image, dilated convolutions (tiles of one
// phase each) with all of these; plus the transform matrices themselves and the schedule
// space's validation.

#include <doctest/doctest.h>

#include <omp.h>

#include <optional>
#include <random>
#include <utility>

#include "conv/winograd_geometry.h"
#include "conv/winograd_matrices.h"
#include "kernel_check.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/host.h"
#include "layoutopt/kernels/tunable_op.h"
#include "layoutopt/kernels/winograd_conv2d.h"
#include "support/tolerances.h"
#include "support/omp_threads.h"

namespace {

using namespace layoutopt::kernels;

/// A 3x3 stride-1 conv: what Winograd applies to.
Conv2dDesc make_desc(int64_t c, int64_t h, int64_t w, int64_t o, int64_t pad) {
  return testing::square_conv(c, h, w, o, 3, 1, pad);
}

// Winograd's error belongs to the whole tile (its transforms sum terms larger than the
// direct products), so each output is held to support/tolerances.h's relative bound for its
// tile size, measured at 256-512 channels (winograd_accuracy_test.cpp): max|diff| /
// max|reference| at most 4e-6 (F(2x2)), 5e-5 (F(4x4)) or 1.2e-4 (F(6x6)). A wrong tap, a
// misplaced tile or a missed epilogue is off by ~1e-1 of the largest output; an unwritten
// (NaN) one fails too.
/// `schedule` against `expected`, the reference output of `problem`.
void check_against(const Conv2dDesc& desc, const WinogradSchedule& schedule, const testing::Problem& problem,
                   const std::vector<float>& expected) {
  const Conv2dLayouts layouts = winograd_conv2d_layouts(desc, schedule);
  const Kernel kernel = compile_winograd_conv2d(desc, schedule);
  CHECK(kernel.stages().size() == 3);
  const testing::BlockedLayouts blocked{layouts.input, layouts.weight, layouts.output};
  const std::vector<float> packed = pack_winograd_weights(desc, schedule, problem.weight);
  const double bound = layoutopt::testing::winograd_relative(schedule.m);
  const std::string what = desc.str() + " winograd " + schedule.str();
  testing::check_relative(expected, testing::run_packed(kernel, problem, blocked, packed), bound, what);
  // In a team of 3 (a network's shared team): stages, or bands, split three ways.
  testing::check_relative(expected, testing::run_packed_in_team(kernel, problem, blocked, packed, 3), bound,
                          what + " in a team of 3");
}

void check_schedule(const Conv2dDesc& desc, const WinogradSchedule& schedule) {
  const auto problem = testing::make_problem(desc, 11);
  check_against(desc, schedule, problem, testing::reference_output(desc, problem));
}

void check_every_tile_size(const Conv2dDesc& desc, int64_t ic_bn, int64_t oc_bn, int64_t tile_t,
                           int64_t band_rows = 0) {
  // One reference output for all of them: the naive reference dominates under sanitizers.
  const auto problem = testing::make_problem(desc, 11);
  const auto expected = testing::reference_output(desc, problem);
  for (int64_t m : conv::winograd_tile_sizes())
    check_against(desc,
                  {m, ic_bn, oc_bn, std::min(tile_t, winograd_tile_grid(desc, m).tiles()), m >= 4, false, band_rows},
                  problem, expected);
}

/// A 3x3 stride-1 conv dilated by (dh, dw) with padding (pad_h, pad_w) on both sides.
Conv2dDesc make_dilated(int64_t c, int64_t h, int64_t w, int64_t o, int64_t dh, int64_t dw, int64_t pad_h,
                        int64_t pad_w) {
  Conv2dDesc d = make_desc(c, h, w, o, 0);
  d.dilation_h = dh, d.dilation_w = dw;
  d.pad_top = d.pad_bottom = pad_h;
  d.pad_left = d.pad_right = pad_w;
  return d;
}

}  // namespace

TEST_CASE("winograd matrices compute a 3-tap correlation exactly (1-D identity A^T[(Gg).(B^T d)])") {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> uniform(-1, 1);
  for (int64_t m : conv::winograd_tile_sizes()) {
    const conv::WinogradMatrices& t = conv::winograd_matrices(m);
    REQUIRE(t.alpha == m + 2);
    std::vector<double> d(static_cast<size_t>(t.alpha)), g(3);
    for (double& x : d) x = uniform(rng);
    for (double& x : g) x = uniform(rng);
    std::vector<double> product(static_cast<size_t>(t.alpha));
    for (int64_t k = 0; k < t.alpha; ++k) {
      double gg = 0, bd = 0;
      for (int64_t i = 0; i < 3; ++i) gg += t.G[k][i] * g[i];
      for (int64_t i = 0; i < t.alpha; ++i) bd += t.BT[k][i] * d[i];
      product[k] = gg * bd;
    }
    for (int64_t a = 0; a < m; ++a) {
      double y = 0, direct = 0;
      for (int64_t k = 0; k < t.alpha; ++k) y += t.AT[a][k] * product[k];
      for (int64_t i = 0; i < 3; ++i) direct += d[a + i] * g[i];
      CHECK(y == doctest::Approx(direct).epsilon(1e-12));
    }
  }
  CHECK_THROWS_AS((void)conv::winograd_matrices(8), KernelError);
}

TEST_CASE("winograd conv2d, padding 1, images the tiles divide and do not divide") {
  check_every_tile_size(make_desc(16, 8, 8, 32, 1), 16, 32, 6);
  check_every_tile_size(make_desc(16, 9, 11, 32, 1), 8, 16, 4);
  check_every_tile_size(make_desc(8, 7, 5, 8, 1), 1, 8, 1);
}

TEST_CASE("winograd conv2d without and with asymmetric padding") {
  check_every_tile_size(make_desc(8, 10, 9, 16, 0), 8, 16, 5);
  Conv2dDesc d = make_desc(8, 9, 10, 16, 0);
  d.pad_top = 2, d.pad_left = 0, d.pad_bottom = 1, d.pad_right = 2;
  check_every_tile_size(d, 4, 16, 3);
}

TEST_CASE("winograd conv2d channel blocks with vector remainder chunks, odd channel counts") {
  check_every_tile_size(make_desc(6, 8, 8, 40, 1), 6, 40, 8);   // 16 + 16 + 8 lanes out, 6 in
  check_every_tile_size(make_desc(3, 6, 7, 20, 1), 3, 20, 2);   // 16 + 4 lanes, 3 input channels
  check_every_tile_size(make_desc(24, 6, 6, 24, 1), 24, 24, 9);
}

TEST_CASE("winograd conv2d with batch > 1 and both work-item orders") {
  Conv2dDesc d = make_desc(8, 6, 7, 16, 1);
  d.batch = 3;
  for (bool oc_inner : {false, true}) {
    check_schedule(d, {2, 8, 16, 4, oc_inner});
    check_schedule(d, {4, 4, 8, 2, oc_inner, true});
  }
  // Tiles of 2 on 8 x 8: 16 tiles, so V's 16 channels and M's 32 are 16 and 32 lines per
  // position, each padded by a line, per image; M's 24 channels are 24 lines, unpadded.
  for (int64_t out_channels : {32, 24}) {
    Conv2dDesc padded = make_desc(16, 8, 8, out_channels, 1);
    padded.batch = 2;
    check_schedule(padded, {2, 16, 8, 6, false});
    check_schedule(padded, {2, 8, out_channels, 4, true, true});
  }
}

TEST_CASE("winograd conv2d every epilogue combination") {
  const std::vector<Epilogue> epilogues = testing::all_epilogues();
  REQUIRE(epilogues.size() == 24);
  for (const Epilogue& epilogue : epilogues) {
    Conv2dDesc d = make_desc(8, 7, 9, 24, 1);
    d.epilogue = epilogue;
    check_schedule(d, {4, 8, 24, 4, false});
    check_schedule(d, {2, 4, 8, 9, true});
  }
}

TEST_CASE("winograd conv2d wide reduction (relu6 clamps both ways)") {
  Conv2dDesc d = make_desc(64, 12, 12, 32, 1);
  d.epilogue = {true, Activation::Relu6, true, Activation::Relu};
  check_schedule(d, {4, 16, 32, 9, false});
  check_schedule(d, {2, 64, 16, 16, true});
}

TEST_CASE("banded winograd conv2d: bands that divide the tile rows and bands that overhang them") {
  const Conv2dDesc d = make_desc(16, 9, 11, 32, 1);  // m = 2: 5 x 6 tiles; m = 4: 3 x 3
  for (int64_t band_rows : {1, 2, 4}) check_schedule(d, {2, 8, 16, 6, false, false, band_rows});
  for (int64_t band_rows : {1, 2}) check_schedule(d, {4, 16, 32, 3, true, false, band_rows});
}

TEST_CASE("banded winograd conv2d with batch > 1, a residual epilogue and more bands than threads") {
  Conv2dDesc d = make_desc(8, 13, 10, 24, 1);  // m = 2: 7 x 5 tiles, 4 bands of 2 per image
  d.batch = 3;
  d.epilogue = {true, Activation::Relu, true, Activation::Relu6};
  check_schedule(d, {2, 8, 24, 5, false, true, 2});
  check_schedule(d, {4, 4, 8, 2, true, false, 1});  // m = 4: 4 x 3 tiles, a band per tile row
}

TEST_CASE("winograd conv2d stores its output in another channel block than it computes in") {
  // Stored block a multiple of the computed one, a divisor, neither (16 -> 12: pieces of 4),
  // plain NCHW; a residual read in the stored layout, two images, banded and not, a dilated image.
  Conv2dDesc d = make_desc(8, 9, 11, 48, 1);
  d.batch = 2;
  d.epilogue = {true, Activation::Relu, true, Activation::Relu6};
  for (const int64_t store_bn : {1, 12, 48})
    for (const int64_t oc_bn : {16, 24}) {
      const WinogradSchedule schedule{2, 8, oc_bn, 5, store_bn == 12, false, store_bn == 1 ? 2 : 0, store_bn};
      CHECK(winograd_conv2d_layouts(d, schedule).output == layoutopt::layout::Layout::nchwc(store_bn));
      check_schedule(d, schedule);
    }
  check_schedule(d, {4, 4, 48, 3, false, false, 1, 16});
  check_schedule(make_dilated(8, 13, 11, 16, 2, 2, 2, 2), {4, 8, 16, 4, false, false, 0, 8});
  CHECK_THROWS_WITH_AS(validate_winograd_conv2d(d, {4, 8, 16, 4, false, false, 0, 32}),
                       doctest::Contains("store_bn must be 0 or divide out_channels = 48"), KernelError);
  const ConfigSpace space = winograd_conv2d_space(d);
  CHECK(winograd_conv2d_schedule_at(space, space.searched_size() - 1).store_bn == 0);  // search sees store 0 only
}

TEST_CASE("dilated winograd conv2d, padding == dilation, images the tiles divide and do not divide") {
  check_every_tile_size(make_dilated(16, 16, 16, 32, 2, 2, 2, 2), 16, 32, 6);  // phases of 8 x 8: all tiles full
  check_every_tile_size(make_dilated(8, 13, 11, 16, 2, 2, 2, 2), 8, 16, 4);    // phases of 7 or 6 rows, 6 or 5 columns
  check_every_tile_size(make_dilated(8, 28, 28, 16, 4, 4, 4, 4), 8, 16, 8);    // fcn-resnet50's maps: phases of 7 x 7
  check_every_tile_size(make_dilated(8, 10, 9, 8, 4, 4, 4, 4), 4, 8, 3);       // phases of 3, 3, 2, 2 rows
}

TEST_CASE("dilated winograd conv2d: non-square dilation, dilation wider than the image") {
  check_every_tile_size(make_dilated(8, 12, 14, 16, 2, 4, 2, 4), 8, 16, 5);
  check_every_tile_size(make_dilated(8, 9, 10, 8, 1, 3, 1, 3), 8, 8, 4);
  check_every_tile_size(make_dilated(8, 11, 9, 8, 3, 2, 3, 2), 4, 8, 3);
  // Every phase one output: ASPP's rates on a small map; all taps but the centre read padding.
  check_every_tile_size(make_dilated(8, 6, 5, 8, 8, 12, 8, 12), 8, 8, 7);
}

TEST_CASE("dilated winograd conv2d with padding other than the dilation: none, less, more, asymmetric") {
  check_every_tile_size(make_dilated(8, 14, 13, 16, 2, 2, 0, 0), 8, 16, 5);
  check_every_tile_size(make_dilated(8, 12, 12, 8, 4, 4, 1, 3), 8, 8, 4);
  check_every_tile_size(make_dilated(8, 9, 10, 8, 2, 2, 5, 3), 4, 8, 6);
  Conv2dDesc d = make_dilated(8, 11, 12, 16, 2, 3, 0, 0);
  d.pad_top = 1, d.pad_bottom = 4, d.pad_left = 5, d.pad_right = 0;
  check_every_tile_size(d, 4, 16, 3);
}

TEST_CASE("dilated winograd conv2d, odd channel counts with vector remainder chunks") {
  check_every_tile_size(make_dilated(3, 10, 11, 20, 2, 2, 2, 2), 3, 20, 4);
  check_every_tile_size(make_dilated(6, 9, 9, 40, 4, 4, 4, 4), 6, 40, 8);
}

TEST_CASE("banded dilated winograd conv2d: bands of one phase's tile rows and of several phases") {
  const Conv2dDesc d = make_dilated(16, 13, 11, 32, 2, 2, 2, 2);  // m = 2: 7 x 6 tiles; m = 4: 4 x 4
  for (int64_t band_rows : {1, 2, 3, 4}) check_every_tile_size(d, 8, 16, 6, band_rows);
  const Conv2dDesc wide = make_dilated(8, 28, 28, 16, 4, 4, 4, 4);  // m = 4: 8 x 8 tiles
  for (int64_t band_rows : {1, 2, 4}) check_every_tile_size(wide, 8, 16, 8, band_rows);
}

TEST_CASE("dilated winograd conv2d with batch > 1, residual epilogues, banded and whole") {
  Conv2dDesc d = make_dilated(8, 13, 10, 24, 2, 4, 2, 4);
  d.batch = 3;
  d.epilogue = {true, Activation::Relu, true, Activation::Relu6};
  for (int64_t band_rows : {0, 1, 2}) {
    check_schedule(d, {2, 8, 24, 5, false, true, band_rows});
    check_schedule(d, {4, 4, 8, 2, true, false, band_rows});
  }
  d.epilogue = {false, Activation::None, true, Activation::None};
  check_schedule(d, {4, 8, 8, 3, false, false, 0});
}

/// Tile rows and columns of F(m x m) on desc.
std::pair<int64_t, int64_t> tile_grid(const Conv2dDesc& desc, int64_t m) {
  const WinogradTileGrid grid = winograd_tile_grid(desc, m);
  return {grid.rows, grid.columns};
}

TEST_CASE("dilated winograd tiles: one phase each, the last group only for the phases that reach it") {
  using Grid = std::pair<int64_t, int64_t>;
  // 28 outputs at dilation 4: phases of 7; m = 4: groups of outputs 0-15 and 16-27, 4 tiles each.
  CHECK(tile_grid(make_dilated(8, 28, 28, 8, 4, 4, 4, 4), 4) == Grid{8, 8});
  CHECK(tile_grid(make_dilated(8, 28, 28, 8, 4, 4, 4, 4), 2) == Grid{16, 16});
  // 10 rows at dilation 4: phases of 3, 3, 2, 2; m = 2: a group of 4 tiles, then phases 0, 1.
  // 9 columns at dilation 2: phases of 5, 4; m = 2: 2 full groups, then phase 0.
  CHECK(tile_grid(make_dilated(8, 10, 9, 8, 4, 2, 4, 2), 2) == Grid{6, 5});
  // Dilation past the image: a tile per output row and column.
  CHECK(tile_grid(make_dilated(8, 6, 5, 8, 8, 12, 8, 12), 4) == Grid{6, 5});
  CHECK(tile_grid(make_desc(8, 9, 11, 8, 1), 4) == Grid{3, 3});
  CHECK(winograd_tile_grid(make_desc(8, 9, 11, 8, 1), 4).tiles() == 9);
}

/// Floats of the kernel's two scratch regions, once it has its scratch.
std::vector<size_t> scratch_sizes(const Conv2dDesc& d, const WinogradSchedule& schedule) {
  Kernel kernel = compile_winograd_conv2d(d, schedule);
  kernel.use_scratch(std::make_shared<KernelScratch>());
  std::vector<size_t> sizes;
  for (const std::span<float> region : kernel.scratch_regions()) sizes.push_back(region.size());
  return sizes;
}

TEST_CASE("whole-stage V and M pad each tile position's planes by a line where their lines are a multiple of 16") {
  conv::WinogradGeometry g{.in_channels = 256, .out_channels = 48, .in_h = 14, .in_w = 14, .out_h = 14, .out_w = 14,
                           .m = 4, .alpha = 6, .ic_bn = 16, .oc_bn = 16};
  REQUIRE(g.band_tiles() == 16);
  // 256 channels x 16 tiles: 256 lines, one more; 48 x 16: 48 lines, one more.
  CHECK(g.position_pitch(256) == 257 * 16);
  CHECK(g.position_pad(256) == 16);
  CHECK(g.position_pitch(48) == 49 * 16);
  CHECK(g.transformed_input_floats() == 36 * 257 * 16);
  CHECK(g.transformed_output_floats() == 36 * 49 * 16);
  // 25 lines or 56 (8 of L1's sets): no padding.
  CHECK(g.position_pitch(25) == 25 * 16);
  CHECK(g.position_pad(25) == 0);
  CHECK(g.position_pitch(56) == 56 * 16);
  // Banded: a band's tiles (4 of a row here), never padded; part of a line rounds up to one.
  g.band_rows = 1;
  CHECK(g.position_pitch(256) == 64 * 16);
  CHECK(g.position_pitch(3) == 16);
}

TEST_CASE("a banded winograd kernel keeps a copy of its intermediates per thread, each a band's") {
  const Conv2dDesc d = make_desc(16, 14, 14, 32, 1);  // m = 4: 4 x 4 tiles
  const auto threads = static_cast<size_t>(omp_get_max_threads());
  // A band of one row: 4 tiles, 6 x 6 points each, for every input (then output) channel.
  constexpr size_t v_band = 36 * 4 * 16, m_band = 36 * 4 * 32;
  CHECK(scratch_sizes(d, {4, 16, 32, 4, false, false, 1}) == std::vector<size_t>{v_band * threads, m_band * threads});
  // Threads added after use_scratch: the regions grow with them, inside the shared buffers.
  const auto shared = std::make_shared<KernelScratch>();
  std::vector<std::span<float>> regions;
  {
    const layoutopt::testing::OmpThreads team(1);
    Kernel kernel = compile_winograd_conv2d(d, {4, 16, 32, 4, false, false, 1});
    kernel.use_scratch(shared);
    CHECK(shared->bytes() == static_cast<int64_t>((v_band + m_band) * sizeof(float)));
    team.set(3);
    regions = kernel.scratch_regions();
  }
  REQUIRE(regions.size() == 2);
  CHECK(regions[0].size() == v_band * 3);
  CHECK(shared->bytes() >= static_cast<int64_t>((regions[0].size() + regions[1].size()) * sizeof(float)));
  // Bands of the image's 4 tile rows or more are its whole stages: all 16 tiles (16 lines per
  // point in V, 32 in M, each one more), one copy.
  for (int64_t band_rows : {0, 4, 8})
    CHECK(scratch_sizes(d, {4, 16, 32, 4, false, false, band_rows}) == std::vector<size_t>{36 * 17 * 16, 36 * 33 * 16});
}

TEST_CASE("banded winograd conv2d: the bands share the tiles evenly, starting and ending inside tile rows") {
  // 28 x 28 in tiles of 4: 7 x 7 tiles. Bands of about 4 rows: 25 and 24 tiles (not 28 and
  // 21), each V and M a band of 25; of about 2 rows: four bands of 13 (13, 13, 13, 10).
  Conv2dDesc d = make_desc(16, 28, 28, 16, 1);
  d.epilogue = {true, Activation::Relu, true, Activation::None};
  CHECK(compile_winograd_conv2d(d, {4, 16, 16, 5, false, false, 4}).units() == 2);
  CHECK(scratch_sizes(d, {4, 16, 16, 5, false, false, 4}) ==
        std::vector<size_t>{36 * 25 * 16 * static_cast<size_t>(omp_get_max_threads()),
                            36 * 25 * 16 * static_cast<size_t>(omp_get_max_threads())});
  CHECK(compile_winograd_conv2d(d, {4, 16, 16, 5, false, false, 2}).units() == 4);
  for (int64_t band_rows : {2, 4}) {
    check_schedule(d, {4, 8, 16, 5, false, true, band_rows});
    check_schedule(d, {4, 16, 8, 13, true, false, band_rows});
  }
  // A band longer than a row: 5 x 3 tiles of 2 in bands of about 4 rows, 8 and 7 tiles.
  check_schedule(make_desc(8, 10, 6, 8, 1), {2, 8, 8, 4, false, false, 4});
}

TEST_CASE("every point of the winograd space is a valid kernel: register tiles wider than a band are clamped to it") {
  const Conv2dDesc d = make_desc(8, 8, 8, 16, 1);  // m = 4: 2 x 2 tiles, bands of one row hold 2
  check_schedule(d, {4, 8, 16, 4, false, false, 1});
  check_schedule(d, {4, 8, 16, 4, false, false, 2});
  // The space's widest tile comes from tiles of 2 (49 on 14 x 14, capped at 32); tiles of 6
  // are 9 there.
  const Conv2dDesc wider = make_desc(8, 14, 14, 16, 1);
  CHECK(winograd_conv2d_space(wider).values("tile_t").back() == 32);
  check_schedule(wider, {6, 8, 16, 16, false, false, 0});
  check_schedule(wider, {6, 8, 16, 16, true, false, 1});
}

TEST_CASE("winograd space: applicability, knobs, validation and packing sizes") {
  CHECK(winograd_applicable(make_desc(8, 8, 8, 8, 1)));
  Conv2dDesc strided = make_desc(8, 8, 8, 8, 1);
  strided.stride_h = strided.stride_w = 2;
  CHECK_FALSE(winograd_applicable(strided));
  CHECK_THROWS_WITH_AS((void)winograd_conv2d_space(strided), doctest::Contains("stride 1"), KernelError);
  Conv2dDesc grouped = make_desc(8, 8, 8, 8, 1);
  grouped.groups = 2;
  CHECK_FALSE(winograd_applicable(grouped));
  CHECK(TunableOp::conv2d_algorithms(grouped).size() == 1);
  const Conv2dDesc dilated = make_dilated(8, 10, 9, 8, 2, 4, 2, 4);
  CHECK(winograd_applicable(dilated));
  CHECK(TunableOp::conv2d_algorithms(dilated).size() == 2);
  // Tiles of m = 2: 6 x 5, phases 2 x 4 (rows 2 phases of 5: 3 tiles each; columns phases of
  // 3, 2, 2, 2: 2 + 1 + 1 + 1), where undilated 5 x 5 would cover 10 x 9.
  CHECK(winograd_conv2d_space(dilated).values("tile_t").back() == 30);

  const Conv2dDesc d = make_desc(16, 14, 14, 32, 1);
  const ConfigSpace space = winograd_conv2d_space(d);
  CHECK(space.values("tile_m") == std::vector<int64_t>{2, 4, 6});
  CHECK(space.values("tile_t").back() == 32);  // 7 x 7 tiles of 2 x 2 cover 14 x 14: 49, capped at 32
  CHECK_THROWS_WITH_AS(validate_winograd_conv2d(d, {4, 16, 32, 33, false}), doctest::Contains("tile_t"), KernelError);
  CHECK_THROWS_WITH_AS(validate_winograd_conv2d(d, {4, 16, 32, 4, false, false, 0, 0, 0}),
                       doctest::Contains("oc_tile_blocks"), KernelError);
  CHECK_THROWS_WITH_AS(validate_winograd_conv2d(d, {3, 16, 32, 4, false}), doctest::Contains("2, 4 or 6"), KernelError);
  CHECK_THROWS_WITH_AS(validate_winograd_conv2d(d, {4, 5, 32, 4, false}), doctest::Contains("ic_bn"), KernelError);
  CHECK_THROWS_WITH_AS(validate_winograd_conv2d(d, {4, 16, 32, 4, false, false, -1}), doctest::Contains("band_rows"),
                       KernelError);

  const std::vector<TunableOp> algorithms = TunableOp::conv2d_algorithms(d);
  REQUIRE(algorithms.size() == 2);
  const TunableOp& winograd = algorithms[1];
  CHECK(winograd.family() == OpFamily::winograd_conv2d);
  const int64_t index = winograd.default_index();
  CHECK(winograd.knobs(index).at("tile_m") == 2);  // tiles of 4 would leave 16, too few
  // Records written before bands existed name whole-stage kernels, at the indices they had.
  std::map<std::string, int64_t> unbanded = winograd.knobs(index);
  unbanded["tile_band"] = 0;
  const std::optional<int64_t> unbanded_index = winograd.index_of(unbanded);
  REQUIRE(unbanded_index.has_value());
  unbanded.erase("tile_band");
  CHECK(winograd.index_of(unbanded) == unbanded_index);
  CHECK(*unbanded_index < space.size() / 4);
  CHECK(winograd.buffer_sizes(index).weight == 16 * 32 * 16);  // alpha^2 = 16 for m = 2
  CHECK(winograd.pack_weights(index, std::vector<float>(32 * 16 * 9, 1.0F)).size() == 16 * 32 * 16);
  // The direct algorithm's knobs are no point of the Winograd space and vice versa.
  CHECK_FALSE(winograd.index_of(algorithms[0].knobs(algorithms[0].default_index())));
  CHECK_FALSE(algorithms[0].index_of(winograd.knobs(index)));
}

TEST_CASE("the default computes 3x3 stride-1 convs by winograd on images of enough tiles") {
  // ResNet-50's 3x3 stride-1 convs: tiles of 4 on 56 and 28 pixels (196 and 49 tiles) and on
  // 14 (16, since tiles of 2's 4.2 MB of weights exceed L2), of 2 on 7 where its weights
  // decide (16 tiles of 2).
  const Conv2dDesc layer1 = make_desc(64, 56, 56, 64, 1);
  const Conv2dDesc layer2 = make_desc(128, 28, 28, 128, 1);
  const Conv2dDesc layer3 = make_desc(256, 14, 14, 256, 1);
  Conv2dDesc layer4 = make_desc(512, 7, 7, 512, 1);
  CHECK(winograd_by_default(layer1));
  CHECK(winograd_by_default(layer2));
  CHECK(winograd_by_default(layer3));
  // On 7x7 only where the product reads at most two thirds of the weight bytes the direct
  // default reads: these 9.4 MB exceed any L2, and the direct register tiles are 7 or more
  // per output block against the product's 2 or 3 reads of 16.8 MB (3.6 or 5.4 direct
  // weights' worth).
  CHECK(winograd_by_default(layer4));
  // Weights that fit in L2 (densenet-201's 128 -> 32 on 7x7, 147 KB) stay direct, and so do
  // images of fewer than 16 tiles of 2 (5x5: 9).
  CHECK_FALSE(winograd_by_default(make_desc(128, 7, 7, 32, 1)));
  CHECK_FALSE(winograd_by_default(make_desc(512, 5, 5, 512, 1)));
  CHECK(winograd_default_schedule(layer1).m == 4);
  CHECK(winograd_default_schedule(layer2).m == 4);
  CHECK(winograd_default_schedule(layer3).m == 4);
  // With weights in L2 (densenet-201's 128 -> 32, 262 KB in tiles of 2) 14x14 keeps tiles of 2.
  CHECK(winograd_default_schedule(make_desc(128, 14, 14, 32, 1)).m == 2);
  // Tiles of 6 where they cover no more outputs than tiles of 4 and are enough: inception-v3's
  // 35 x 35 maps (36 tiles of 6, both tilings 36 x 36), not 24 x 24 (16 of 6, too few) or 28
  // x 28 (tiles of 6 would cover 30 x 30).
  CHECK(winograd_default_schedule(make_desc(64, 35, 35, 96, 1)).m == 6);
  CHECK(winograd_default_schedule(make_desc(64, 24, 24, 64, 1)).m == 4);
  // Bands of one tile row where the image has 8 or more (56 / 4 = 14); below, a band per
  // thread where each gets 16 tiles or more (7 x 7 tiles: 25 and 24 on two threads), else
  // whole stages (7 x 7 on four threads; one thread).
  {
    const layoutopt::testing::OmpThreads team(2);
    CHECK(winograd_default_schedule(layer1).band_rows == 1);
    CHECK(winograd_default_schedule(layer2).band_rows == 4);
    CHECK(winograd_default_schedule(layer3).band_rows == 0);  // 16 tiles of 4
    // Its register tile covers a band evenly: 25 tiles in 5 of 5, not 4 of 6 and one of 1.
    CHECK(25 % winograd_default_schedule(layer2).tile_t == 0);
    team.set(4);
    CHECK(winograd_default_schedule(layer1).band_rows == 1);
    CHECK(winograd_default_schedule(layer2).band_rows == 0);
    team.set(1);
    CHECK(winograd_default_schedule(layer2).band_rows == 0);
  }
  // A whole image's product whose weights exceed L2 rereads them once per register tile, so
  // its 16 tiles go in two-vector tiles as wide as the accumulators allow, evened out: 2
  // passes of 8 with AVX-512, 3 of 6, 5 and 5 with AVX2 (4 by 6 or 3 by 4 would take 3 or 4).
  for (const Conv2dDesc& d : {layer3, layer4}) {
    CAPTURE(d.str());
    const WinogradSchedule s = winograd_default_schedule(d);
    CHECK(s.oc_tile_blocks * host_info().vectors_spanning(s.oc_bn) == 2);
    const auto ceil_div = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
    const int64_t passes = ceil_div(16, host_info().tile_accumulators() / 2);
    CHECK(s.tile_t == ceil_div(16, passes));
  }
  // Where a two-vector tile would take as many passes, the direct rule's tile stays (hrnet's
  // 144 channels, 9 blocks, on 7x7: 3 blocks by 8 tiles with AVX-512).
  if (host_info().vector_registers >= 32)
    CHECK(winograd_default_schedule(make_desc(144, 7, 7, 144, 1)).oc_tile_blocks == 3);
  // The middle stage fetches the next output block's weights, as the direct default does,
  // wherever there is a next one: not for an output of a single block.
  CHECK(winograd_default_schedule(layer1).prefetch_weights);
  CHECK(winograd_default_schedule(layer3).prefetch_weights);
  const Conv2dDesc one_block = make_desc(64, 56, 56, default_channel_block(64), 1);
  CHECK(winograd_default_schedule(one_block).oc_bn == one_block.out_channels);
  CHECK_FALSE(winograd_default_schedule(one_block).prefetch_weights);
  // Tiles count over the batch: two images of 7x7 have 32 tiles of 2.
  layer4.batch = 2;
  CHECK(winograd_by_default(layer4));
  // The algorithm the default network runs, and only where it applies and the default blocks
  // the channels (12 channels: no block of 8 or 16).
  CHECK(TunableOp::conv2d_default_algorithm(layer1).family() == OpFamily::winograd_conv2d);
  Conv2dDesc strided = layer1;
  strided.stride_h = strided.stride_w = 2;
  CHECK(TunableOp::conv2d_default_algorithm(strided).family() == OpFamily::conv2d);
  CHECK_FALSE(winograd_by_default(make_desc(12, 56, 56, 64, 1)));
  CHECK_FALSE(winograd_by_default(make_desc(64, 56, 56, 12, 1)));
  for (const Conv2dDesc& d : {layer1, layer2, layer3, layer4}) {
    CAPTURE(d.str());
    const WinogradSchedule s = winograd_default_schedule(d);
    // Activations stay in the default block (no transform around it), and the register
    // tile stays within the host's accumulators.
    CHECK(s.ic_bn == default_channel_block(d.in_channels));
    CHECK(s.stored_block() == default_channel_block(d.out_channels));
    CHECK(s.tile_t * s.oc_tile_blocks * host_info().vectors_spanning(s.oc_bn) <= host_info().tile_accumulators());
    const TunableOp op = TunableOp::winograd_conv2d(d);
    CHECK(winograd_conv2d_schedule_at(op.space(), op.default_index()) == s);
  }
}

TEST_CASE("a pipeline names the scratch it uses; a single function has none") {
  const Conv2dDesc d = make_desc(16, 14, 14, 32, 1);
  // One thread: the default computes whole stages (no band per thread), one copy of each.
  const layoutopt::testing::OmpThreads one(1);
  const std::vector<TunableOp> algorithms = TunableOp::conv2d_algorithms(d);
  REQUIRE(algorithms.size() == 2);
  CHECK(algorithms[0].compile(algorithms[0].default_index()).scratch_regions().empty());

  Kernel winograd = algorithms[1].compile(algorithms[1].default_index());
  CHECK(winograd.scratch_regions().empty());  // no scratch before a first run or a shared one
  const auto shared = std::make_shared<KernelScratch>();
  shared->reserve(0, 1 << 20);  // larger than this kernel needs: the regions are its own part
  winograd.use_scratch(shared);
  const std::vector<std::span<float>> regions = winograd.scratch_regions();
  REQUIRE(regions.size() == 2);
  CHECK(regions[0].data() == shared->data(0));
  CHECK(regions[1].data() == shared->data(1));
  // The default's 49 tiles of 2 x 2 output (14 x 14), 4 x 4 transformed points each: the
  // input channels' tiles, then the output channels' products.
  CHECK(regions[0].size() == 16 * 49 * 16);
  CHECK(regions[1].size() == 16 * 49 * 32);
}
