// The reference operators against values worked out by hand.

#include <doctest/doctest.h>

#include <cmath>
#include <numeric>

#include "layoutopt/graph/passes/recognize_channel_shuffle.h"
#include "layoutopt/kernels/reference/conv2d.h"
#include "layoutopt/kernels/reference/conv_transpose2d.h"
#include "layoutopt/kernels/reference/elementwise.h"
#include "layoutopt/kernels/reference/graph_executor.h"
#include "layoutopt/kernels/reference/lrn.h"
#include "layoutopt/kernels/reference/pool2d.h"
#include "layoutopt/kernels/reference/resize.h"
#include "layoutopt/kernels/reference/tensor_ops.h"
#include "op_check.h"

using namespace layoutopt::kernels::reference;
namespace graph = layoutopt::graph;

namespace {

HostTensor iota(std::vector<int64_t> shape, float start = 0.0f) {
  HostTensor t(std::move(shape));
  std::iota(t.data.begin(), t.data.end(), start);
  return t;
}

HostTensor tensor(std::vector<int64_t> shape, std::vector<float> data) {
  HostTensor t(std::move(shape));
  t.data = std::move(data);
  return t;
}

/// Sum of a[i] * b[i], or of |a[i] * b[i]| (the scale its rounding errors are relative to).
double dot(const HostTensor& a, const HostTensor& b, bool absolute = false) {
  double sum = 0.0;
  for (size_t i = 0; i < a.data.size(); ++i) {
    const double term = double{a.data[i]} * b.data[i];
    sum += absolute ? std::abs(term) : term;
  }
  return sum;
}

graph::Resize resize_to(int64_t h, int64_t w, graph::ResizeMode mode, graph::ResizeCoordinates coordinates,
                        graph::NearestRounding rounding = graph::NearestRounding::floor) {
  return {.mode = mode,
          .coordinates = coordinates,
          .rounding = rounding,
          .size = {h, w},
          .scale_h = 1.0,
          .scale_w = 1.0};
}

}  // namespace

TEST_CASE("max and average pooling handle padding and partial windows") {
  const HostTensor x = iota({1, 1, 3, 3}, 1.0f);  // 1..9
  const layoutopt::kernels::TensorDesc plane{.batch = 1, .channels = 1, .height = 3, .width = 3, .block = 1};
  layoutopt::kernels::Pool2dDesc p{
      .input = plane, .kernel_h = 2, .kernel_w = 2, .stride_h = 2, .stride_w = 2, .out_h = 2, .out_w = 2};
  CHECK(pool2d(x, p).data == std::vector<float>{5, 6, 8, 9});  // ceil-mode tail windows
  p.kind = layoutopt::kernels::PoolKind::average;
  CHECK(pool2d(x, p).data == std::vector<float>{3, 4.5f, 7.5f, 9});
  // 3x3 window, pad 1, stride 1: the corner averages 4 real values, or 9 with count_include_pad.
  layoutopt::kernels::Pool2dDesc padded{.input = plane, .kind = layoutopt::kernels::PoolKind::average,
                                         .kernel_h = 3, .kernel_w = 3, .pad_top = 1, .pad_left = 1, .pad_bottom = 1,
                                         .pad_right = 1, .out_h = 3, .out_w = 3};
  CHECK(pool2d(x, padded).data[0] == doctest::Approx((1 + 2 + 4 + 5) / 4.0));
  padded.count_include_pad = true;
  CHECK(pool2d(x, padded).data[0] == doctest::Approx((1 + 2 + 4 + 5) / 9.0));
  CHECK(global_avg_pool(x).data == std::vector<float>{5});
}

TEST_CASE("broadcasting multiplies a per-channel scale") {
  const HostTensor x = iota({1, 2, 1, 2});     // [[0,1],[2,3]]
  HostTensor scale({1, 2, 1, 1});
  scale.data = {10, 100};
  CHECK(binary(BinaryOp::mul, x, scale).data == std::vector<float>{0, 10, 200, 300});
  CHECK(binary(BinaryOp::add, x, x).data == std::vector<float>{0, 2, 4, 6});
}

TEST_CASE("activations and batch norm") {
  HostTensor x({4});
  x.data = {-2, -0.5f, 3, 8};
  CHECK(unary(UnaryOp::relu, x).data == std::vector<float>{0, 0, 3, 8});
  CHECK(clip(x, 0, 6).data == std::vector<float>{0, 0, 3, 6});
  CHECK(unary(UnaryOp::sigmoid, x).data[2] == doctest::Approx(1 / (1 + std::exp(-3.0))));
  const HostTensor img = iota({1, 2, 1, 2});
  const float scale[] = {2, 1}, shift[] = {1, 0}, mean[] = {1, 2}, var[] = {4, 1};
  const HostTensor bn = batch_norm(img, scale, shift, mean, var, 0.0f);
  CHECK(bn.data == std::vector<float>{0, 1, 0, 1});
}

TEST_CASE("concat, pad, transpose, softmax and reshape move data correctly") {
  const HostTensor a = iota({1, 1, 2, 2});
  const HostTensor b = iota({1, 2, 2, 2}, 10);
  const HostTensor c = concat({&a, &b}, 1);
  CHECK(c.shape == std::vector<int64_t>{1, 3, 2, 2});
  CHECK(c.data == std::vector<float>{0, 1, 2, 3, 10, 11, 12, 13, 14, 15, 16, 17});
  const HostTensor w = concat({&a, &a}, 3);
  CHECK(w.data == std::vector<float>{0, 1, 0, 1, 2, 3, 2, 3});

  const HostTensor padded = pad2d(a, 1, 0, 0, 1, -1.0f);
  CHECK(padded.shape == std::vector<int64_t>{1, 1, 3, 3});
  CHECK(padded.data == std::vector<float>{-1, -1, -1, 0, 1, -1, 2, 3, -1});

  const HostTensor t = transpose(iota({1, 2, 1, 3}), {0, 2, 3, 1});  // NCHW -> NHWC
  CHECK(t.shape == std::vector<int64_t>{1, 1, 3, 2});
  CHECK(t.data == std::vector<float>{0, 3, 1, 4, 2, 5});

  const HostTensor s = softmax(iota({2, 3}), 1);
  CHECK(s.data[0] + s.data[1] + s.data[2] == doctest::Approx(1.0));
  CHECK(s.data[2] / s.data[1] == doctest::Approx(std::exp(1.0)));
  CHECK(reshape(a, {1, 4}).shape == std::vector<int64_t>{1, 4});
}

TEST_CASE("the new activations against their definitions") {
  const HostTensor x = tensor({5}, {-4, -1, 0, 1.5f, 4});
  const HostTensor hard = hard_sigmoid(x, 1.0f / 6.0f, 0.5f);
  const double expected_hard[] = {0, 1.0 / 3.0, 0.5, 0.75, 1};
  for (size_t i = 0; i < 5; ++i) CHECK(hard.data[i] == doctest::Approx(expected_hard[i]));
  // x * relu6(x + 3) / 6: -1 * 2/6, 1.5 * 4.5/6.
  const HostTensor swish = unary(UnaryOp::hard_swish, x);
  CHECK(swish.data[0] == 0.0f);
  CHECK(swish.data[1] == doctest::Approx(-1.0 / 3.0));
  CHECK(swish.data[3] == doctest::Approx(1.125));
  CHECK(swish.data[4] == 4.0f);
  CHECK(leaky_relu(x, 0.1f).data == std::vector<float>{-0.4f, -0.1f, 0, 1.5f, 4});
  CHECK(unary(UnaryOp::tanh, x).data[3] == doctest::Approx(0.9051482536));  // tanh(1.5)
}

TEST_CASE("sub, div, max, min and prelu broadcast like add and mul") {
  const HostTensor a = tensor({2, 2}, {1, 5, 3, -2});
  const HostTensor b = tensor({2}, {2, 4});
  CHECK(binary(BinaryOp::sub, a, b).data == std::vector<float>{-1, 1, 1, -6});
  CHECK(binary(BinaryOp::div, a, b).data == std::vector<float>{0.5f, 1.25f, 1.5f, -0.5f});
  CHECK(binary(BinaryOp::max, a, b).data == std::vector<float>{2, 5, 3, 4});
  CHECK(binary(BinaryOp::min, b, a).data == std::vector<float>{1, 4, 2, -2});
  // One slope per channel of an NCHW tensor.
  const HostTensor x = tensor({1, 2, 1, 2}, {-1, 2, -3, 4});
  const HostTensor slope = tensor({2, 1, 1}, {0.5f, 0.25f});
  CHECK(binary(BinaryOp::prelu, x, slope).data == std::vector<float>{-0.5f, 2, -0.75f, 4});
}

TEST_CASE("reduce mean over any axes, slice with a step") {
  // x[n, c, k] = 6n + 2c + k: the mean over n and k is 3 + 2c + 0.5.
  const HostTensor x = iota({2, 3, 2});
  const HostTensor kept = reduce_mean(x, {0, 2}, true);
  CHECK(kept.shape == std::vector<int64_t>{1, 3, 1});
  CHECK(kept.data == std::vector<float>{3.5f, 5.5f, 7.5f});
  CHECK(reduce_mean(x, {0, 2}, false).shape == std::vector<int64_t>{3});
  CHECK(reduce_mean(x, {0, 1, 2}, false).data == std::vector<float>{5.5f});

  const HostTensor every_third = slice(iota({2, 8}), 1, 1, 8, 3);
  CHECK(every_third.shape == std::vector<int64_t>{2, 3});
  CHECK(every_third.data == std::vector<float>{1, 4, 7, 9, 12, 15});
}

TEST_CASE("channel shuffle is the reshape-transpose-reshape permutation") {
  CHECK(channel_shuffle(iota({1, 4, 1, 1}), 2).data == std::vector<float>{0, 2, 1, 3});
  const HostTensor x = iota({2, 6, 2, 3});
  const HostTensor split = reshape(x, {2, 3, 2, 2, 3});
  const HostTensor expected = reshape(transpose(split, {0, 2, 1, 3, 4}), {2, 6, 2, 3});
  CHECK(channel_shuffle(x, 3).data == expected.data);
  CHECK(channel_shuffle(x, 3).data != x.data);
}

TEST_CASE("lrn sums squares over floor((size-1)/2) channels before and ceil((size-1)/2) after") {
  const HostTensor x = tensor({1, 3, 1, 1}, {1, 2, 3});
  // size 2: each channel with the next one; alpha / size = 0.5.
  const HostTensor even = lrn(x, {.size = 2, .alpha = 1.0f, .beta = 1.0f, .bias = 1.0f});
  CHECK(even.data[0] == doctest::Approx(1.0 / (1 + 0.5 * (1 + 4))));
  CHECK(even.data[1] == doctest::Approx(2.0 / (1 + 0.5 * (4 + 9))));
  CHECK(even.data[2] == doctest::Approx(3.0 / (1 + 0.5 * 9)));
  // size 3: the middle channel sees all three.
  const HostTensor odd = lrn(x, {.size = 3, .alpha = 0.3f, .beta = 0.75f, .bias = 2.0f});
  CHECK(odd.data[0] == doctest::Approx(1.0 / std::pow(2 + 0.1 * (1 + 4), 0.75)));
  CHECK(odd.data[1] == doctest::Approx(2.0 / std::pow(2 + 0.1 * 14, 0.75)));
}

TEST_CASE("nearest resize: asymmetric 2x upsampling repeats pixels") {
  graph::Resize r = resize_to(4, 4, graph::ResizeMode::nearest, graph::ResizeCoordinates::asymmetric);
  r.scale_h = r.scale_w = 2.0;
  CHECK(resize(tensor({1, 1, 2, 2}, {1, 2, 3, 4}), r).data ==
        std::vector<float>{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
  // Downsampling by 2 keeps every other pixel.
  graph::Resize half = resize_to(1, 2, graph::ResizeMode::nearest, graph::ResizeCoordinates::asymmetric);
  half.scale_h = half.scale_w = 0.5;
  CHECK(resize(tensor({1, 1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}), half).data == std::vector<float>{1, 3});
}

TEST_CASE("nearest resize rounds half-pixel coordinates per nearest_mode") {
  // Width 2 to 3 with scale 1.5: output columns map to -1/6, 1/2 and 7/6.
  const HostTensor x = tensor({1, 1, 1, 2}, {1, 2});
  const auto with = [&](graph::NearestRounding rounding) {
    graph::Resize r = resize_to(1, 3, graph::ResizeMode::nearest, graph::ResizeCoordinates::half_pixel, rounding);
    r.scale_w = 1.5;
    return resize(x, r).data;
  };
  CHECK(with(graph::NearestRounding::round_prefer_floor) == std::vector<float>{1, 1, 2});
  CHECK(with(graph::NearestRounding::round_prefer_ceil) == std::vector<float>{1, 2, 2});
  CHECK(with(graph::NearestRounding::floor) == std::vector<float>{1, 1, 2});
  CHECK(with(graph::NearestRounding::ceil) == std::vector<float>{1, 2, 2});
}

TEST_CASE("bilinear resize: align_corners, half_pixel clamped at the edges, pytorch_half_pixel to one pixel") {
  const HostTensor ramp = tensor({1, 1, 1, 2}, {0, 1});
  const auto corners = resize_to(1, 3, graph::ResizeMode::linear, graph::ResizeCoordinates::align_corners);
  CHECK(resize(ramp, corners).data == std::vector<float>{0, 0.5f, 1});

  // Columns map to -0.25, 0.25, 0.75 and 1.25; the outer two clamp to the edge pixels.
  graph::Resize doubled = resize_to(2, 4, graph::ResizeMode::linear, graph::ResizeCoordinates::half_pixel);
  doubled.scale_h = doubled.scale_w = 2.0;
  CHECK(resize(ramp, doubled).data == std::vector<float>{0, 0.25f, 0.75f, 1, 0, 0.25f, 0.75f, 1});

  // One output pixel: pytorch_half_pixel reads coordinate 0, half_pixel the middle (1.5).
  const HostTensor row = tensor({1, 1, 1, 4}, {10, 20, 30, 40});
  graph::Resize single = resize_to(1, 1, graph::ResizeMode::linear, graph::ResizeCoordinates::pytorch_half_pixel);
  single.scale_w = 0.25;
  CHECK(resize(row, single).data == std::vector<float>{10});
  single.coordinates = graph::ResizeCoordinates::half_pixel;
  CHECK(resize(row, single).data == std::vector<float>{25});
}

TEST_CASE("conv_transpose2d scatters each input through the kernel and adds the bias") {
  // Kernel 2x2 of ones with stride 2: every input pixel becomes a 2x2 block.
  const HostTensor x = tensor({1, 1, 2, 2}, {1, 2, 3, 4});
  const HostTensor ones = tensor({1, 1, 2, 2}, {1, 1, 1, 1});
  const HostTensor bias = tensor({1}, {10});
  const graph::ConvTranspose2d up{.kernel = {2, 2}, .stride = {2, 2}, .bias = true};
  const HostTensor y = conv_transpose2d(x, ones, &bias, up);
  CHECK(y.shape == std::vector<int64_t>{1, 1, 4, 4});
  CHECK(y.data == std::vector<float>{11, 11, 12, 12, 11, 11, 12, 12, 13, 13, 14, 14, 13, 13, 14, 14});
}

TEST_CASE("conv_transpose2d is the adjoint of conv2d: <conv(x), y> == <x, conv_transpose(y)>") {
  using layoutopt::kernels::testing::random_tensor;
  // Grouped, strided, dilated and unevenly padded; the output padding (1, 2) restores the
  // input extents conv2d's floor dropped.
  const layoutopt::kernels::Conv2dDesc desc{.batch = 2, .in_channels = 4, .in_h = 7, .in_w = 6, .out_channels = 6,
                                            .kernel_h = 3, .kernel_w = 2, .stride_h = 2, .stride_w = 3,
                                            .pad_top = 1, .pad_left = 0, .pad_bottom = 2, .pad_right = 1,
                                            .dilation_h = 2, .dilation_w = 1, .groups = 2};
  const HostTensor x = random_tensor({2, 4, 7, 6}, 11);
  // conv2d's [O, I/groups, kh, kw] weight is the transpose's [I', O'/groups, kh, kw].
  const HostTensor weight = random_tensor({6, 2, 3, 2}, 12);
  const HostTensor y = random_tensor({2, 6, desc.out_h(), desc.out_w()}, 13);
  HostTensor conv_x({2, 6, desc.out_h(), desc.out_w()});
  conv2d(desc, x.data.data(), weight.data.data(), nullptr, nullptr, conv_x.data.data());

  const graph::ConvTranspose2d adjoint{.kernel = {3, 2}, .stride = {2, 3}, .dilation = {2, 1},
                                       .pads = {1, 0, 2, 1}, .output_padding = {1, 2}, .groups = 2};
  const HostTensor back = conv_transpose2d(y, weight, nullptr, adjoint);
  REQUIRE(back.shape == x.shape);
  CHECK(std::abs(dot(conv_x, y) - dot(x, back)) <= 1e-6 * dot(conv_x, y, true));
  CHECK(std::abs(dot(x, back)) > 1e-3 * dot(conv_x, y, true));  // not trivially zero
}

TEST_CASE("the executor runs a recognized channel shuffle like the chain it replaced") {
  graph::Graph g("shuffle");
  const graph::ValueId x = g.add_input("x", {{1, 6, 2, 2}});
  const graph::ValueId split = g.add_node("split", graph::Reshape{.shape = {1, 2, 3, 2, 2}}, {x});
  const graph::ValueId swapped = g.add_node("swap", graph::Transpose{.perm = {0, 2, 1, 3, 4}}, {split});
  g.add_output(g.add_node("merge", graph::Reshape{.shape = {1, 6, 2, 2}}, {swapped}));
  const std::vector<HostTensor> input{iota({1, 6, 2, 2})};
  const std::vector<HostTensor> chain = run_graph(g, input);
  REQUIRE(graph::recognize_channel_shuffle(g) == 1);
  const std::vector<HostTensor> shuffled = run_graph(g, input);
  CHECK(shuffled[0].shape == chain[0].shape);
  CHECK(shuffled[0].data == chain[0].data);
  // Channel order 0, 3, 1, 4, 2, 5 of the input's four-pixel planes.
  CHECK(std::vector<float>(shuffled[0].data.begin(), shuffled[0].data.begin() + 8) ==
        std::vector<float>{0, 1, 2, 3, 12, 13, 14, 15});
}
