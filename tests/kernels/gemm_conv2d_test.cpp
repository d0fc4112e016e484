// The GEMM over pixels (gemm_conv2d) against the NCHW reference: register tiles whose channels
// and pixels do and do not divide the layer's (a narrower last tile on both axes), vectors cut
// short by small images, batches, run_range splitting and every epilogue; its space, default
// and refusals.

#include <doctest/doctest.h>

#include <algorithm>
#include <functional>

#include "kernel_check.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/gemm_conv2d.h"
#include "layoutopt/kernels/host.h"
#include "layoutopt/kernels/tunable_op.h"

namespace {

using namespace layoutopt::kernels;
using layoutopt::kernels::testing::square_conv;

void check_schedule(const Conv2dDesc& desc, const GemmConv2dSchedule& schedule, int ranges = 1) {
  const Conv2dLayouts layouts = gemm_conv2d_layouts(desc, schedule);
  testing::check_against_reference(desc, compile_gemm_conv2d(desc, schedule),
                                   {layouts.input, layouts.weight, layouts.output},
                                   desc.str() + " " + schedule.str(), 11, ranges);
}

Conv2dDesc pointwise(int64_t channels, int64_t h, int64_t w, int64_t out_channels) {
  Conv2dDesc d = square_conv(channels, h, w, out_channels, 1, 1, 0);
  d.epilogue.bias = true;
  d.epilogue.activation = Activation::Relu;
  return d;
}

}  // namespace

TEST_CASE("gemm_conv2d against the reference: tiles that do and do not divide channels and pixels") {
  const int64_t lanes = host_info().vector_lanes;
  // shufflenet's 58 channels on 28x28 (784 pixels), 116 on 14x14, a 7x7 map smaller than
  // the widest tile, and an odd image whose pixels no vector divides.
  for (const Conv2dDesc& desc : {pointwise(58, 28, 28, 58), pointwise(116, 14, 14, 116), pointwise(24, 7, 7, 58),
                                 pointwise(13, 5, 3, 7)})
    for (const GemmConv2dSchedule& schedule :
         {GemmConv2dSchedule{1, 1}, GemmConv2dSchedule{3, lanes}, GemmConv2dSchedule{6, 2 * lanes},
          GemmConv2dSchedule{4, 3 * lanes}, GemmConv2dSchedule{7, 5}, gemm_conv2d_default_schedule(desc)}) {
      GemmConv2dSchedule s = schedule;
      s.channels_bn = std::min(s.channels_bn, desc.out_channels);
      s.pixels_bn = std::min(s.pixels_bn, desc.out_h() * desc.out_w());
      CAPTURE(s.str());
      check_schedule(desc, s);
    }
}

TEST_CASE("gemm_conv2d with a batch, run_range splitting and every epilogue") {
  Conv2dDesc batched = pointwise(29, 6, 9, 11);
  batched.batch = 3;
  check_schedule(batched, {4, 16}, 5);
  for (const Epilogue& epilogue : testing::all_epilogues()) {
    Conv2dDesc desc = pointwise(10, 5, 7, 9);
    desc.epilogue = epilogue;
    CAPTURE(epilogue.str());
    check_schedule(desc, gemm_conv2d_default_schedule(desc));
  }
}

TEST_CASE("gemm_conv2d applies to 1x1, stride-1, unpadded, ungrouped convs and is the default where channels stay plain") {
  CHECK(gemm_conv2d_applicable(pointwise(58, 28, 28, 58)));
  // 134 = 2 x 67 and 67: no default block fills more than half of its vectors, so the default
  // keeps both sides plain NCHW (default_channel_block 1).
  REQUIRE(default_channel_block(134) == 1);
  CHECK(gemm_conv2d_by_default(pointwise(134, 28, 28, 134)));
  CHECK(gemm_conv2d_by_default(pointwise(134, 14, 14, 67)));
  // With AVX-512, 58 defaults to a masked block of 58, which the direct kernel reads and
  // writes as it lies.
  CHECK(gemm_conv2d_by_default(pointwise(58, 28, 28, 58)) == (default_channel_block(58) == 1));
  // Either side in a blocked default layout: the direct kernel reads or writes it as it lies.
  CHECK_FALSE(gemm_conv2d_by_default(pointwise(232, 7, 7, 58)));
  CHECK_FALSE(gemm_conv2d_by_default(pointwise(58, 7, 7, 232)));
  // Offered to tuning where a vector does not divide one side, on images of a vector of pixels.
  CHECK(gemm_conv2d_offered(pointwise(58, 7, 7, 232)));
  CHECK_FALSE(gemm_conv2d_offered(pointwise(64, 7, 7, 128)));
  CHECK_FALSE(gemm_conv2d_offered(pointwise(6, 1, 1, 144)));  // squeeze-and-excitation, one pixel
  CHECK_FALSE(gemm_conv2d_by_default(pointwise(6, 1, 1, 10)));
  CHECK_FALSE(gemm_conv2d_applicable(square_conv(58, 28, 28, 58, 3, 1, 1)));
  CHECK_FALSE(gemm_conv2d_applicable(square_conv(58, 28, 28, 58, 1, 2, 0)));
  Conv2dDesc grouped = pointwise(58, 28, 28, 58);
  grouped.groups = 2;
  CHECK_FALSE(gemm_conv2d_applicable(grouped));
  Conv2dDesc scaled = pointwise(58, 28, 28, 58);
  scaled.input_scale = true;
  CHECK_FALSE(gemm_conv2d_applicable(scaled));
  CHECK_THROWS_AS(TunableOp::gemm_conv2d(scaled), KernelError);
  CHECK_THROWS_AS(compile_gemm_conv2d(square_conv(8, 6, 6, 8, 3, 1, 1), {1, 8}), KernelError);
  CHECK_THROWS_AS(compile_gemm_conv2d(pointwise(8, 2, 2, 8), {1, 5}), KernelError);  // 4 pixels
  CHECK_THROWS_AS(compile_gemm_conv2d(pointwise(8, 2, 2, 8), {9, 4}), KernelError);  // 8 channels
}

TEST_CASE("gemm_conv2d is an algorithm of the conv where it applies, and the default one where the rule says") {
  const Conv2dDesc desc = pointwise(134, 28, 28, 134);
  const std::vector<TunableOp> algorithms = TunableOp::conv2d_algorithms(desc);
  REQUIRE(algorithms.size() == 2);
  CHECK(algorithms[1].family() == OpFamily::gemm_conv2d);
  const TunableOp chosen = TunableOp::conv2d_default_algorithm(desc);
  CHECK(chosen.family() == OpFamily::gemm_conv2d);
  // The default is a point of its space, and of no other algorithm's (knob names differ).
  const auto knobs = chosen.knobs(chosen.default_index());
  CHECK_FALSE(algorithms[0].index_of(knobs).has_value());
  const GemmConv2dSchedule s = gemm_conv2d_schedule_at(chosen.space(), chosen.default_index());
  CHECK(s == gemm_conv2d_default_schedule(desc));
  // Two vectors of pixels, the rows the accumulators leave, every one a point of the space.
  CHECK(s.pixels_bn == 2 * host_info().vector_lanes);
  CHECK(s.channels_bn * 2 <= host_info().tile_accumulators());
  // Whole vectors of pixels, each once, up to the widest tile or the image.
  const int64_t lanes = host_info().vector_lanes;
  CHECK(gemm_conv2d_space(desc).values("tile_pixels") == std::vector<int64_t>{lanes, 2 * lanes, 3 * lanes, 4 * lanes});
  const std::vector<int64_t> on_7x7 = gemm_conv2d_space(pointwise(58, 7, 7, 58)).values("tile_pixels");
  CHECK(on_7x7.back() == std::min<int64_t>(49, 4 * lanes));
  CHECK(std::ranges::adjacent_find(on_7x7, std::greater_equal<>()) == on_7x7.end());  // each once, increasing
  CHECK(gemm_conv2d_space(pointwise(58, 3, 3, 58)).values("tile_pixels") ==
        (lanes < 9 ? std::vector<int64_t>{lanes, 9} : std::vector<int64_t>{9}));
  for (int64_t i = 0; i < chosen.space().size(); ++i) {
    const GemmConv2dSchedule each = gemm_conv2d_schedule_at(chosen.space(), i);
    CHECK_NOTHROW(validate_gemm_conv2d(desc, each));
  }
  CHECK(TunableOp::conv2d_default_algorithm(pointwise(64, 28, 28, 64)).family() == OpFamily::conv2d);
}
