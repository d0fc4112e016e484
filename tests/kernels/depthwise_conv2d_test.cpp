// Depthwise conv2d kernels against the NCHW reference (groups == channels).

#include <doctest/doctest.h>

#include "kernel_check.h"
#include "layoutopt/kernels/depthwise_conv2d.h"
#include "layoutopt/kernels/host.h"
#include "layoutopt/kernels/tunable_op.h"

namespace {

using namespace layoutopt::kernels;

Conv2dDesc depthwise_desc(int64_t c, int64_t h, int64_t w, int64_t k, int64_t stride, int64_t pad) {
  Conv2dDesc d = testing::square_conv(c, h, w, c, k, stride, pad);
  d.groups = c;
  return d;
}

void check_schedule(const Conv2dDesc& desc, const DepthwiseConv2dSchedule& schedule) {
  const DepthwiseConv2dLayouts layouts = depthwise_conv2d_layouts(desc, schedule);
  testing::check_against_reference(desc, compile_depthwise_conv2d(desc, schedule),
                                   {layouts.input, layouts.weight, layouts.output},
                                   desc.str() + " " + schedule.str(), 11);
}

void check_many(const Conv2dDesc& desc) {
  const auto blocks = divisors(desc.in_channels);
  for (int64_t c_bn : {blocks.front(), blocks[blocks.size() / 2], blocks.back()})
    for (int64_t ow_bn : {int64_t{1}, std::min<int64_t>(desc.out_w(), 4), desc.out_w()})
      for (int64_t oh_bn : {int64_t{1}, std::min<int64_t>(desc.out_h(), 3)}) check_schedule(desc, {c_bn, ow_bn, oh_bn});
}

}  // namespace

TEST_CASE("depthwise 3x3 stride 1 and 2 (MobileNet shapes, scaled down)") {
  check_many(depthwise_desc(32, 9, 10, 3, 1, 1));
  check_many(depthwise_desc(48, 11, 11, 3, 2, 1));
}

TEST_CASE("depthwise odd channel counts, 5x5, dilation and asymmetric padding") {
  check_many(depthwise_desc(24, 8, 7, 5, 1, 2));
  Conv2dDesc d = depthwise_desc(20, 9, 12, 3, 1, 0);
  d.dilation_h = 2, d.dilation_w = 2, d.pad_top = 1, d.pad_right = 3;
  check_many(d);
}

TEST_CASE("depthwise every epilogue combination") {
  const Activation activations[] = {Activation::None, Activation::Relu, Activation::Relu6};
  for (bool bias : {false, true})
    for (Activation act : activations)
      for (bool residual : {false, true}) {
        Conv2dDesc d = depthwise_desc(32, 6, 7, 3, 1, 1);
        d.epilogue = {bias, act, residual, residual ? Activation::Relu6 : Activation::None};
        check_schedule(d, {32, 4, 1});
        check_schedule(d, {8, 7, 2});
      }
}

TEST_CASE("depthwise stores its output in another channel block than it computes in") {
  // EfficientNet's depthwise steps feed 1x1 projections that compute in other blocks: stored
  // whole (a multiple of the computed block), split at stored blocks, at the gcd, or plain.
  Conv2dDesc d = depthwise_desc(48, 9, 10, 3, 2, 1);
  d.epilogue = Epilogue{true, Activation::Silu, false, Activation::None};
  for (const int64_t c_bn : {16, 24})
    for (const int64_t store_bn : {1, 4, 6, 48}) {
      const DepthwiseConv2dSchedule schedule{c_bn, 4, 2, store_bn};
      CHECK(depthwise_conv2d_layouts(d, schedule).output == layoutopt::layout::Layout::nchwc(store_bn));
      check_schedule(d, schedule);
    }
  CHECK(depthwise_conv2d_space(d).values("store_oc").back() == 48);
}

TEST_CASE("the default depthwise schedule keeps the activations' block and its accumulators in half the registers") {
  const HostInfo& host = host_info();
  const Conv2dDesc wide = depthwise_desc(144, 56, 56, 3, 1, 1);
  const DepthwiseConv2dSchedule s = depthwise_conv2d_default_schedule(wide);
  CHECK(s.c_bn == default_channel_block(144));  // 16: the block its neighbours use, no transform
  CHECK(s.oh_bn == 1);
  CHECK(s.ow_bn <= 8);
  CHECK(s.ow_bn * host.vectors_spanning(s.c_bn) <= host.vector_registers / 2);
  CHECK(s.ow_bn == std::min<int64_t>(8, host.vector_registers / 2 / host.vectors_spanning(s.c_bn)));
  if (host.vector_lanes == 8) CHECK(s.ow_bn == 4);  // AVX2: two vectors per pixel, 8 of 16 registers
  check_schedule(wide, s);
  // Narrow maps: the whole row.
  CHECK(depthwise_conv2d_default_schedule(depthwise_desc(32, 3, 3, 3, 1, 1)).ow_bn == std::min<int64_t>(3, s.ow_bn));
}
