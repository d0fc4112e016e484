// Schedule spaces, implied layouts, validation errors, the kernel cache and compile timing.

#include <doctest/doctest.h>

#include "layoutopt/kernels/conv2d.h"
#include "layoutopt/kernels/dense.h"
#include "layoutopt/kernels/depthwise_conv2d.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/host.h"

namespace {

using namespace layoutopt::kernels;

Conv2dDesc resnet_3x3() {
  Conv2dDesc d;
  d.in_channels = 64, d.in_h = 56, d.in_w = 56, d.out_channels = 64;
  d.kernel_h = d.kernel_w = 3;
  d.pad_top = d.pad_left = d.pad_bottom = d.pad_right = 1;
  return d;
}

}  // namespace

TEST_CASE("conv2d schedule space prints like an AutoTVM ConfigSpace") {
  const ConfigSpace space = conv2d_space(resnet_3x3());
  const std::string text = space.str();
  CHECK(text.find("tile_ic: [1, 2, 4, 8, 16, 32, 64]\n") != std::string::npos);
  CHECK(text.find("tile_oc: [1, 2, 4, 8, 16, 32, 64]\n") != std::string::npos);
  CHECK(text.find("unroll_kw: [0, 1]\n") != std::string::npos);
  CHECK(text.find("tile_oh: [1]\n") != std::string::npos);  // a 3x3 kernel over 56-wide rows: one row
  CHECK(text.find("oc_inner: [0, 1]\n") != std::string::npos);
  CHECK(text.find("prefetch_weights: [0, 1]\n") != std::string::npos);
  CHECK(space.values("tile_ow").size() == 32);
  CHECK(text.find("store_oc: [0, 1, 2, 4, 8, 16, 32, 64]\n") != std::string::npos);
  CHECK(text.find("load_ic: [0, 1, 2, 4, 8, 16, 32, 64]\n") != std::string::npos);
  CHECK(text.find("reduce_chunk: [0, 32]\n") != std::string::npos);  // passes below the 64 channels
  // 64 channels, which two-vector blocks divide: one block per tile, or the register-filling
  // tile of one-vector blocks (3 with AVX2, 4 with AVX-512).
  const int64_t filling = space.values("tile_oc_blocks").back();
  CHECK(filling >= 3);
  CHECK(space.values("tile_oc_blocks") == std::vector<int64_t>{1, filling});
  CHECK(space.searched_size() == 7 * 7 * 32 * 2 * 2 * 2 * 2 * 2);
  CHECK(space.size() == space.searched_size() * 8 * 8);
  const Conv2dSchedule last = conv2d_schedule_at(space, space.size() - 1);
  CHECK(last == Conv2dSchedule{64, 64, 32, true, 1, true, true, 64, 64, 32, false, filling});
}

TEST_CASE("conv2d register tiles span rows for 1x1 kernels and for narrow outputs") {
  Conv2dDesc narrow = resnet_3x3();
  narrow.in_h = narrow.in_w = kNarrowOutputWidth;  // padding 1 keeps the width
  CHECK(conv2d_space(narrow).values("tile_oh") == std::vector<int64_t>{1, 2, 3, 4});
  Conv2dDesc wider = narrow;
  wider.in_w = kNarrowOutputWidth + 1;
  CHECK(conv2d_space(wider).values("tile_oh") == std::vector<int64_t>{1});
  Conv2dDesc short_map = narrow;
  short_map.in_h = 3;
  CHECK(conv2d_max_tile_rows(short_map) == 3);  // no taller than the output
  Conv2dDesc one_by_one = resnet_3x3();
  one_by_one.kernel_h = one_by_one.kernel_w = 1;
  one_by_one.pad_top = one_by_one.pad_left = one_by_one.pad_bottom = one_by_one.pad_right = 0;
  CHECK(conv2d_max_tile_rows(one_by_one) == 4);  // 56 wide, still rows
}

TEST_CASE("a conv2d schedule implies its layouts") {
  const Conv2dLayouts layouts = conv2d_layouts(resnet_3x3(), {8, 32, 14, true, 1});
  CHECK(layouts.input.str() == "NCHW8c");
  CHECK(layouts.weight.str() == "OIHW8i32o");
  CHECK(layouts.output.str() == "NCHW32c");
  Conv2dDesc dw = resnet_3x3();
  dw.groups = 64;
  CHECK(depthwise_conv2d_layouts(dw, {16, 8, 1}).weight.str() == "OIHW1i16o");
  CHECK(dense_layouts({1, 2048, 1000, {}}, {16, 40}).input.str() == "NC16c");
  CHECK(dense_layouts({1, 2048, 1000, {}}, {16, 40}).weight.str() == "OI16i40o");
}

TEST_CASE("invalid descs and schedules are rejected with the reason") {
  const Conv2dDesc d = resnet_3x3();
  CHECK_THROWS_WITH_AS(validate_conv2d(d, {16, 24, 8, true, 1}), doctest::Contains("oc_bn must divide"), KernelError);
  CHECK_THROWS_WITH_AS(validate_conv2d(d, {5, 16, 8, true, 1}), doctest::Contains("ic_bn must divide"), KernelError);
  CHECK_THROWS_WITH_AS(validate_conv2d(d, {16, 16, 57, true, 1}), doctest::Contains("ow_bn must lie"), KernelError);
  Conv2dDesc grouped = d;
  grouped.groups = 3;
  CHECK_THROWS_WITH_AS(grouped.validate(), doctest::Contains("groups must divide"), KernelError);
  Conv2dDesc tiny = d;
  tiny.in_h = 1, tiny.pad_top = tiny.pad_bottom = 0;
  CHECK_THROWS_WITH_AS(tiny.validate(), doctest::Contains("output is empty"), KernelError);
  CHECK_THROWS_WITH_AS(validate_depthwise_conv2d(d, {16, 8, 1}), doctest::Contains("groups == in_channels"),
                       KernelError);
  CHECK_THROWS_WITH_AS(validate_dense({1, 10, 10, {}}, {3, 5}), doctest::Contains("in_bn must divide"), KernelError);
}

TEST_CASE("kernels are cached per desc and schedule and report compile time") {
  Conv2dDesc d = resnet_3x3();
  d.in_h = d.in_w = 8;
  const Kernel first = compile_conv2d(d, {16, 16, 8, true, 1});
  const Kernel again = compile_conv2d(d, {16, 16, 8, true, 1});
  CHECK(first.name() == again.name());
  CHECK(first.compile_ms() > 0.0);
  CHECK(first.work_items() == 4 * 8);  // (oc blocks) x (rows)
  const Kernel other = compile_conv2d(d, {16, 16, 4, true, 1});
  CHECK(other.name() != first.name());
  d.epilogue.bias = true;
  CHECK_THROWS_WITH_AS(compile_conv2d(d, {16, 16, 8, true, 1})({nullptr, nullptr, nullptr, nullptr, nullptr}),
                       doctest::Contains("must not be null"), KernelError);
}

TEST_CASE("host detection picks the vector width from the CPU features") {
  const HostInfo& host = host_info();
  CHECK_FALSE(host.cpu_name.empty());
  CHECK((host.vector_lanes == 4 || host.vector_lanes == 8 || host.vector_lanes == 16));
}
