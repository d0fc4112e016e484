// pool2d and global average pooling in NCHW[x]c against the NCHW reference: every block
// from {1, 4, 8, 16, 32} that divides C, several register tiles, odd sizes, asymmetric
// padding, strides 2 and 3, ceil mode and count_include_pad. Max pooling must match exactly,
// averages to 1e-5 relative (on positive inputs, see op_check.h).

#include "layoutopt/kernels/pool2d.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <tuple>

#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/global_avg_pool.h"
#include "layoutopt/kernels/reference/pool2d.h"
#include "op_check.h"

namespace {

using namespace layoutopt::kernels;
using namespace layoutopt::kernels::testing;

// Output extent in floor or ceil mode (ceil: the last window may start in the input's tail).
int64_t out_extent(int64_t in, int64_t kernel, int64_t stride, int64_t pad_before, int64_t pad_after, bool ceil) {
  const int64_t span = in + pad_before + pad_after - kernel;
  int64_t out = (ceil ? (span + stride - 1) / stride : span / stride) + 1;
  if (ceil && (out - 1) * stride >= in + pad_before) --out;  // PyTorch: windows start inside
  return out;
}

struct Window {
  int64_t kernel = 3, stride = 1;
  int64_t top = 0, left = 0, bottom = 0, right = 0;
  bool ceil = false;
};

Pool2dDesc make_desc(PoolKind kind, TensorDesc input, const Window& w, bool count_include_pad = false) {
  Pool2dDesc d;
  d.input = input;
  d.kind = kind;
  d.kernel_h = d.kernel_w = w.kernel;
  d.stride_h = d.stride_w = w.stride;
  d.pad_top = w.top, d.pad_left = w.left, d.pad_bottom = w.bottom, d.pad_right = w.right;
  d.count_include_pad = count_include_pad;
  d.out_h = out_extent(input.height, w.kernel, w.stride, w.top, w.bottom, w.ceil);
  d.out_w = out_extent(input.width, w.kernel, w.stride, w.left, w.right, w.ceil);
  return d;
}


bool is_max(const Pool2dDesc& d) { return d.kind == PoolKind::max; }

void check_pool(const Pool2dDesc& desc, const Pool2dSchedule& schedule, const HostTensor& input,
                const HostTensor& expected, int ranges = 1) {
  const Pool2dLayouts layouts = pool2d_layouts(desc);
  const std::vector<float> in = to_layout(input, layouts.input);
  std::vector<float> out = nan_buffer(desc.output().elements());
  run_kernel(compile_pool2d(desc, schedule), {.input = in.data(), .output = out.data()}, ranges);
  const HostTensor actual = from_layout(out, desc.output().shape(), layouts.output);
  const std::string what = desc.str() + " " + schedule.str();
  if (is_max(desc))
    check_exact(expected, actual, what);
  else
    check_close(expected, actual, 1e-5, 0.0, what);
}

// Every dividing block, tiles 1, 3, the default and the full width.
void check_blocks(PoolKind kind, int64_t channels, int64_t h, int64_t w, const Window& window,
                  bool count_include_pad = false, int64_t batch = 1) {
  const HostTensor input = kind == PoolKind::max ? random_tensor({batch, channels, h, w}, 5)
                                                 : random_tensor({batch, channels, h, w}, 5, 0.5F, 1.5F);
  for (int64_t block : blocks_dividing(channels)) {
    const Pool2dDesc desc = make_desc(kind, {batch, channels, h, w, block}, window, count_include_pad);
    const HostTensor expected = reference::pool2d(input, desc);
    for (int64_t ow_bn :
         {int64_t{1}, std::min<int64_t>(3, desc.out_w), pool2d_default_schedule(desc).ow_bn, desc.out_w})
      check_pool(desc, {ow_bn}, input, expected);
  }
}

}  // namespace

TEST_CASE("max and average pool 3x3 stride 2 pad 1 (ResNet stem), odd sizes") {
  const Window w{3, 2, 1, 1, 1, 1};
  check_blocks(PoolKind::max, 32, 13, 11, w);
  check_blocks(PoolKind::average, 32, 13, 11, w);
  check_blocks(PoolKind::average, 32, 13, 11, w, true);
}

TEST_CASE("24 channels: blocks 1, 4, 8 (multi-chunk and remainder vectors via block 8 of 24)") {
  check_blocks(PoolKind::max, 24, 9, 10, {2, 2});
  check_blocks(PoolKind::average, 24, 9, 10, {3, 3, 0, 1, 2, 0});
}

TEST_CASE("wide channel blocks: 48 and 40 channels in one block (16 + 16 + 16, 16 + 16 + 8 lanes)") {
  for (int64_t channels : {48, 40}) {
    const HostTensor input = random_tensor({1, channels, 7, 8}, 9);
    const Pool2dDesc desc = make_desc(PoolKind::max, {1, channels, 7, 8, channels}, {3, 1, 1, 1, 1, 1});
    check_pool(desc, {4}, input, reference::pool2d(input, desc));
  }
}

TEST_CASE("inception: 3x3 stride 1 pad 1 average without counting padding") {
  check_blocks(PoolKind::average, 16, 8, 9, {3, 1, 1, 1, 1, 1}, false);
}

TEST_CASE("squeezenet: 3x3 stride 2 ceil-mode max pool, batch 2") {
  const Window w{3, 2, 0, 0, 0, 0, true};
  CHECK(out_extent(14, 3, 2, 0, 0, true) == 7);  // floor mode would give 6
  check_blocks(PoolKind::max, 16, 14, 14, w, false, 2);
  check_blocks(PoolKind::average, 16, 14, 15, w, true, 2);  // partial windows past the border
}

TEST_CASE("stride 3, asymmetric padding and rectangular windows") {
  check_blocks(PoolKind::max, 8, 17, 13, {3, 3, 2, 0, 1, 2, true});
  check_blocks(PoolKind::average, 8, 17, 13, {3, 3, 2, 0, 1, 2, true}, true);
  const HostTensor input = random_tensor({1, 8, 9, 12}, 3, 0.5F, 1.5F);
  Pool2dDesc d = make_desc(PoolKind::average, {1, 8, 9, 12, 4}, {});
  d.kernel_h = 2, d.kernel_w = 4, d.stride_h = 1, d.stride_w = 3, d.pad_left = 1;
  d.out_h = 8, d.out_w = 4;
  check_pool(d, {2}, input, reference::pool2d(input, d));
}

TEST_CASE("pooling work split into arbitrary ranges") {
  const HostTensor input = random_tensor({2, 16, 9, 9}, 4);
  const Pool2dDesc desc = make_desc(PoolKind::max, {2, 16, 9, 9, 8}, {3, 2, 1, 1, 1, 1});
  CHECK(compile_pool2d(desc, {2}).work_items() == 2 * 2 * 5);  // (n, channel block, row)
  for (int ranges : {3, 7}) check_pool(desc, {2}, input, reference::pool2d(input, desc), ranges);
}

TEST_CASE("global average pool equals the reference for every block") {
  for (const auto& [channels, h, w] : {std::tuple<int64_t, int64_t, int64_t>{64, 7, 7}, {24, 5, 3}, {32, 1, 1}}) {
    const HostTensor input = random_tensor({2, channels, h, w}, 6, 0.5F, 1.5F);
    const HostTensor expected = reference::global_avg_pool(input);
    for (int64_t block : blocks_dividing(channels)) {
      const TensorDesc desc{2, channels, h, w, block};
      const GlobalAvgPoolLayouts layouts = global_avg_pool_layouts(desc);
      CHECK(layouts.output.str() == "NCHW" + std::to_string(block) + "c");
      const std::vector<float> in = to_layout(input, layouts.input);
      std::vector<float> out = nan_buffer(2 * channels);
      const Kernel kernel = compile_global_avg_pool(desc);
      CHECK(kernel.work_items() == 2 * channels / block);
      kernel({.input = in.data(), .output = out.data()});
      check_close(expected, from_layout(out, {2, channels, 1, 1}, layouts.output), 1e-5, 0.0, desc.str());
    }
  }
}

TEST_CASE("pool2d schedule space, layouts and invalid descs") {
  const Pool2dDesc d = make_desc(PoolKind::max, {1, 64, 56, 56, 16}, {3, 2, 1, 1, 1, 1});
  CHECK(d.out_h == 28);
  CHECK(pool2d_space(d).str() == "tile_ow: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]\n");
  CHECK(pool2d_schedule_at(pool2d_space(d), 4) == Pool2dSchedule{5});
  CHECK(pool2d_layouts(d).input.str() == "NCHW16c");
  Pool2dDesc bad = d;
  bad.input.block = 12;
  CHECK_THROWS_WITH_AS(bad.validate(), doctest::Contains("must divide the channel count 64"), KernelError);
  bad = d, bad.pad_left = 3;
  CHECK_THROWS_WITH_AS(bad.validate(), doctest::Contains("w padding must lie in [0, kernel_w)"), KernelError);
  bad = d, bad.out_h = 30;
  CHECK_THROWS_WITH_AS(bad.validate(), doctest::Contains("last window start past the input"), KernelError);
  CHECK_THROWS_WITH_AS(validate_pool2d(d, {29}), doctest::Contains("ow_bn must lie in [1, out_w = 28]"), KernelError);
  CHECK_THROWS_WITH_AS(compile_global_avg_pool({1, 0, 7, 7, 1}), doctest::Contains("invalid global_avg_pool desc"),
                       KernelError);
}
