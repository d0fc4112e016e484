// The reference operators against values worked out by hand.

#include <doctest/doctest.h>

#include <cmath>
#include <numeric>

#include "layoutopt/kernels/reference/elementwise.h"
#include "layoutopt/kernels/reference/pool2d.h"
#include "layoutopt/kernels/reference/tensor_ops.h"

using namespace layoutopt::kernels::reference;

namespace {

HostTensor iota(std::vector<int64_t> shape, float start = 0.0f) {
  HostTensor t(std::move(shape));
  std::iota(t.data.begin(), t.data.end(), start);
  return t;
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
