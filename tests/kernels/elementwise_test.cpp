// Streaming operators in NCHW[x]c against the NCHW reference: relu / relu6 / sigmoid / tanh /
// hard sigmoid / hard swish / leaky relu, batch norm (per-channel scale + shift), add / sub /
// mul / div / max / min / prelu of same-shaped tensors, with an N x C x 1 x 1 broadcast
// operand and with a constant per-channel vector (either operand on the left), flatten, and
// channel shuffle (a gather of channels, exact).
// Blocks {1, 4, 8, 16, 32} where they divide C, C = 24 and odd sizes (patterns that wrap
// around vectors), chunk sizes that do and do not divide the streams. Tolerances: see
// op_check.h; tanh, hard sigmoid and hard swish are within 1e-6 relative (their slope 1/6
// is a product with a rounded constant where the reference divides, and tanh is a polynomial).

#include "layoutopt/kernels/reference/elementwise.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "layoutopt/kernels/activation.h"
#include "layoutopt/kernels/batch_norm.h"
#include "layoutopt/kernels/channel_shuffle.h"
#include "layoutopt/kernels/elementwise_binary.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/flatten.h"
#include "layoutopt/kernels/reference/tensor_ops.h"
#include "op_check.h"

namespace {

using namespace layoutopt::kernels;
using namespace layoutopt::kernels::testing;

// (N, C, H, W) shapes: ResNet-like, C = 24 with odd spatial sizes, a 1 x 1 image, batch 2.
const std::vector<std::vector<int64_t>> kShapes = {{1, 32, 6, 5}, {1, 24, 7, 3}, {2, 64, 1, 1}, {2, 12, 5, 5}};

// Whole stream in one item, an odd chunk, and a small power of two.
const std::vector<ElementwiseSchedule> kSchedules = {{1 << 20}, {100}, {64}};

// (block, schedule) pairs: every dividing block, the schedules taken in turn (all three are
// covered once a shape has three blocks; this keeps the number of compiled kernels small).
std::vector<std::pair<int64_t, ElementwiseSchedule>> cases_for(int64_t channels) {
  std::vector<std::pair<int64_t, ElementwiseSchedule>> cases;
  for (int64_t block : blocks_dividing(channels))
    cases.emplace_back(block, kSchedules[cases.size() % kSchedules.size()]);
  return cases;
}

HostTensor run_activation(const ActivationDesc& desc, const ElementwiseSchedule& schedule, const HostTensor& x) {
  const std::vector<float> in = to_layout(x, desc.tensor.layout());
  std::vector<float> out = nan_buffer(desc.tensor.elements());
  compile_activation(desc, schedule)({.input = in.data(), .output = out.data()});
  return from_layout(out, x.shape, desc.tensor.layout());
}

HostTensor reference_activation(const ActivationDesc& desc, const HostTensor& x) {
  switch (desc.op) {
    case ActivationOp::relu:
      return reference::unary(reference::UnaryOp::relu, x);
    case ActivationOp::relu6:
      return reference::clip(x, 0.0F, 6.0F);
    case ActivationOp::sigmoid:
      return reference::unary(reference::UnaryOp::sigmoid, x);
    case ActivationOp::tanh:
      return reference::unary(reference::UnaryOp::tanh, x);
    case ActivationOp::hard_sigmoid:
      return reference::hard_sigmoid(x, desc.alpha, desc.beta);
    case ActivationOp::hard_swish:
      return reference::unary(reference::UnaryOp::hard_swish, x);
    case ActivationOp::silu:
      return reference::unary(reference::UnaryOp::silu, x);
    case ActivationOp::leaky_relu:
      return reference::leaky_relu(x, desc.alpha);
    case ActivationOp::gelu:
      return reference::unary(reference::UnaryOp::gelu, x);
    case ActivationOp::gelu_tanh:
      return reference::unary(reference::UnaryOp::gelu_tanh, x);
  }
  return x;
}

reference::BinaryOp reference_op(BinaryOp op) {
  switch (op) {
    case BinaryOp::add:
      return reference::BinaryOp::add;
    case BinaryOp::sub:
      return reference::BinaryOp::sub;
    case BinaryOp::mul:
      return reference::BinaryOp::mul;
    case BinaryOp::div:
      return reference::BinaryOp::div;
    case BinaryOp::max:
      return reference::BinaryOp::max;
    case BinaryOp::min:
      return reference::BinaryOp::min;
    case BinaryOp::prelu:
      return reference::BinaryOp::prelu;
  }
  return reference::BinaryOp::add;
}

/// The reference's result in the desc's operand order (`a` full-shaped, `b` the other operand).
HostTensor reference_binary(const ElementwiseBinaryDesc& desc, const HostTensor& a, const HostTensor& b) {
  return desc.other_first ? reference::binary(reference_op(desc.op), b, a) : reference::binary(reference_op(desc.op), a, b);
}

/// `a` full-shaped; `b` shaped like a, N x C x 1 x 1, or C x 1 x 1 as the desc says.
HostTensor run_binary(const ElementwiseBinaryDesc& desc, const ElementwiseSchedule& schedule, const HostTensor& a,
                      const HostTensor& b) {
  const std::vector<float> in = to_layout(a, desc.tensor.layout());
  // A per-channel operand's memory is its plain values in every layout.
  const std::vector<float> other = desc.other == BinaryOperand::same_shape ? to_layout(b, desc.tensor.layout()) : b.data;
  std::vector<float> out = nan_buffer(desc.tensor.elements());
  KernelArgs args{.input = in.data(), .output = out.data()};
  (desc.other == BinaryOperand::same_shape ? args.residual : args.weight) = other.data();
  compile_elementwise_binary(desc, schedule)(args);
  return from_layout(out, a.shape, desc.tensor.layout());
}

}  // namespace

TEST_CASE("relu, relu6 and sigmoid in every block") {
  for (const auto& shape : kShapes) {
    const HostTensor x = random_tensor(shape, 1, -8.0F, 8.0F);  // beyond both relu6 bounds
    for (ActivationOp op : {ActivationOp::relu, ActivationOp::relu6, ActivationOp::sigmoid}) {
      const HostTensor expected = reference_activation({.op = op}, x);
      for (const auto& [block, schedule] : cases_for(shape[1])) {
        const ActivationDesc desc{tensor_of(shape, block), op};
        const HostTensor actual = run_activation(desc, schedule, x);
        if (op == ActivationOp::sigmoid)
          check_close(expected, actual, 1e-5, 0.0, desc.str() + " " + schedule.str());
        else
          check_exact(expected, actual, desc.str() + " " + schedule.str());
      }
    }
  }
}

TEST_CASE("sigmoid saturates without overflow for large inputs") {
  HostTensor x({1, 4, 1, 2});
  x.data = {-200.0F, -30.0F, -1e-3F, 0.0F, 1e-3F, 20.0F, 88.0F, 1000.0F};
  const HostTensor actual = run_activation({{1, 4, 1, 2, 4}, ActivationOp::sigmoid}, {}, x);
  CHECK(actual.data[0] == 0.0F);  // e^200 overflows to +inf, as in the reference
  CHECK(actual.data[3] == 0.5F);
  CHECK(actual.data[7] == 1.0F);
  check_close(reference_activation({.op = ActivationOp::sigmoid}, x), actual, 1e-5, 0.0, "saturation");
}

TEST_CASE("tanh, hard sigmoid, hard swish and leaky relu in every block") {
  const std::vector<ActivationDesc> functions = {
      {.op = ActivationOp::tanh},
      {.op = ActivationOp::hard_sigmoid, .alpha = 0.2F, .beta = 0.5F},       // ONNX's default
      {.op = ActivationOp::hard_sigmoid, .alpha = 1.0F / 6.0F, .beta = 0.5F},  // PyTorch's
      {.op = ActivationOp::hard_swish},
      {.op = ActivationOp::leaky_relu, .alpha = 0.1F}};
  for (const auto& shape : kShapes) {
    const HostTensor x = random_tensor(shape, 16, -8.0F, 8.0F);  // beyond the hard functions' bends
    for (const ActivationDesc& function : functions) {
      const HostTensor expected = reference_activation(function, x);
      for (const auto& [block, schedule] : cases_for(shape[1])) {
        ActivationDesc desc = function;
        desc.tensor = tensor_of(shape, block);
        const HostTensor actual = run_activation(desc, schedule, x);
        const std::string what = desc.str() + " " + schedule.str();
        if (desc.op == ActivationOp::leaky_relu)
          check_exact(expected, actual, what);
        else
          check_close(expected, actual, 1e-6, desc.op == ActivationOp::tanh ? 0.0 : 1e-6, what);
      }
    }
  }
}

TEST_CASE("tanh is accurate near 0, on both sides of its polynomial's range, and saturates") {
  HostTensor x({1, 16, 1, 1});
  x.data = {0.0F, 1e-6F, -1e-4F, 3e-3F, 0.1F, -0.5F, 0.6249F, 0.6251F, -1.0F, 2.5F, 9.0F, -9.5F, 20.0F, -50.0F,
            1e4F,  -3e38F};
  const HostTensor actual = run_activation({{1, 16, 1, 1, 16}, ActivationOp::tanh}, {}, x);
  for (size_t i = 0; i < x.data.size(); ++i) {
    CAPTURE(x.data[i]);
    CHECK(actual.data[i] == doctest::Approx(std::tanh(double{x.data[i]})).epsilon(1e-6));
  }
  CHECK(actual.data[0] == 0.0F);
  CHECK(actual.data[14] == 1.0F);
  CHECK(actual.data[15] == -1.0F);
  // A sweep over [-10, 10) in steps of 1e-4: the largest relative error stays below 1e-6
  // (1.4e-7 when written).
  HostTensor sweep({1, 16, 125, 100});
  for (size_t i = 0; i < sweep.data.size(); ++i) sweep.data[i] = -10.0F + 1e-4F * static_cast<float>(i);
  const HostTensor swept = run_activation({{1, 16, 125, 100, 16}, ActivationOp::tanh}, {}, sweep);
  double worst = 0.0;
  for (size_t i = 0; i < sweep.data.size(); ++i) {
    const double exact = std::tanh(double{sweep.data[i]});
    if (exact != 0.0) worst = std::max(worst, std::abs(swept.data[i] - exact) / std::abs(exact));
  }
  CHECK(worst < 1e-6);
}

// Relative error in units of 2^-24 (half an ulp at the bottom of a binade, so about the ulp
// error) of `actual` against sigmoid or silu in double, where the sigmoid is a normal float
// (down to x = -85; below -88.3 the kernels return 0).
double worst_ulps(ActivationOp op, const HostTensor& x, const HostTensor& actual) {
  double worst = 0.0;
  for (size_t i = 0; i < x.data.size(); ++i) {
    const double v = x.data[i];
    const double sigmoid = 1.0 / (1.0 + std::exp(-v));
    const double exact = op == ActivationOp::silu ? v * sigmoid : sigmoid;
    if (sigmoid < 1e-37) continue;
    worst = std::max(worst, std::abs(actual.data[i] - exact) / std::abs(exact) * 0x1p24);
  }
  return worst;
}

TEST_CASE("sigmoid and silu stay within a few ulp over float's whole range, in wide and narrow vectors") {
  // [-90, 90) in steps of 1e-3: both saturations, the exp's clamp points and every binade
  // of e^-x. The reciprocal is an estimate refined by Newton steps (12 bits in narrow
  // vectors, 14 in 16-lane ones), which this bounds.
  HostTensor x({1, 16, 180, 625});
  for (size_t i = 0; i < x.data.size(); ++i) x.data[i] = -90.0F + 1e-3F * static_cast<float>(i);
  for (ActivationOp op : {ActivationOp::sigmoid, ActivationOp::silu}) {
    for (int64_t block : {16, 8, 4}) {
      const HostTensor actual = run_activation({tensor_of(x.shape, block), op}, {}, x);
      const double ulps = worst_ulps(op, x, actual);
      CAPTURE(block);
      CAPTURE(ulps);
      CHECK(ulps < 4.0);
    }
  }
}

TEST_CASE("activation parameters are part of the kernel") {
  const TensorDesc tensor{1, 8, 2, 2, 8};
  const ActivationDesc gentle{tensor, ActivationOp::leaky_relu, 0.01F};
  const ActivationDesc steep{tensor, ActivationOp::leaky_relu, 0.3F};
  CHECK(gentle.str() != steep.str());
  HostTensor x({1, 8, 2, 2});
  x.data.assign(32, -1.0F);
  CHECK(run_activation(gentle, {}, x).data[0] == -0.01F);
  CHECK(run_activation(steep, {}, x).data[0] == -0.3F);
  CHECK_THROWS_WITH_AS(compile_activation({tensor, ActivationOp::hard_sigmoid, NAN, 0.5F}, {}),
                       doctest::Contains("alpha and beta must be finite"), KernelError);
}

TEST_CASE("batch norm folds to per-channel scale and shift in every block") {
  for (const auto& shape : kShapes) {
    const auto channels = static_cast<size_t>(shape[1]);
    const HostTensor x = random_tensor(shape, 2);
    const HostTensor gamma = random_tensor({shape[1]}, 3, 0.5F, 1.5F), beta = random_tensor({shape[1]}, 4),
                     mean = random_tensor({shape[1]}, 5), variance = random_tensor({shape[1]}, 6, 0.5F, 1.5F);
    const float epsilon = 1e-5F;
    const HostTensor expected =
        reference::batch_norm(x, gamma.data.data(), beta.data.data(), mean.data.data(), variance.data.data(), epsilon);
    const BatchNormCoefficients folded = fold_batch_norm(gamma.data, beta.data, mean.data, variance.data, epsilon);
    REQUIRE(folded.scale.size() == channels);
    for (const auto& [block, schedule] : cases_for(shape[1])) {
      const BatchNormDesc desc{tensor_of(shape, block)};
      const std::vector<float> in = to_layout(x, desc.tensor.layout());
      std::vector<float> out = nan_buffer(desc.tensor.elements());
      compile_batch_norm(desc, schedule)(
          {.input = in.data(), .weight = folded.scale.data(), .bias = folded.shift.data(), .output = out.data()});
      check_close(expected, from_layout(out, shape, desc.tensor.layout()), 1e-5, 1e-5,
                  desc.str() + " " + schedule.str());
    }
  }
}

TEST_CASE("batch norm with a fused relu / relu6 clamps what the affine map gives") {
  const std::vector<int64_t> shape{1, 32, 5, 7};
  const HostTensor x = random_tensor(shape, 12, -8.0F, 8.0F);
  const BatchNormCoefficients folded{std::vector<float>(32, 1.5F), std::vector<float>(32, 0.25F)};
  for (const Activation activation : {Activation::Relu, Activation::Relu6}) {
    const BatchNormDesc desc{tensor_of(shape, 16), activation};
    const std::vector<float> in = to_layout(x, desc.tensor.layout());
    std::vector<float> out = nan_buffer(desc.tensor.elements());
    compile_batch_norm(desc, {})(
        {.input = in.data(), .weight = folded.scale.data(), .bias = folded.shift.data(), .output = out.data()});
    int clamped = 0;
    for (size_t i = 0; i < in.size(); ++i) {
      const double expected = apply_activation(activation, 1.5 * in[i] + 0.25);
      CHECK(out[i] == doctest::Approx(expected).epsilon(1e-6));
      clamped += (expected == 0.0 || expected == 6.0) ? 1 : 0;
    }
    CHECK(clamped > 100);  // the inputs reach both sides of every clamp
    CHECK(desc.str() != BatchNormDesc{desc.tensor}.str());  // distinct kernels in the cache
  }
}

TEST_CASE("add and mul of same-shaped tensors, including in place") {
  for (const auto& shape : kShapes) {
    const HostTensor a = random_tensor(shape, 7), b = random_tensor(shape, 8);
    for (BinaryOp op : {BinaryOp::add, BinaryOp::mul}) {
      const auto ref_op = op == BinaryOp::add ? reference::BinaryOp::add : reference::BinaryOp::mul;
      const HostTensor expected = reference::binary(ref_op, a, b);
      for (const auto& [block, schedule] : cases_for(shape[1])) {
        const ElementwiseBinaryDesc desc{tensor_of(shape, block), op};
        check_exact(expected, run_binary(desc, schedule, a, b), desc.str() + " " + schedule.str());
      }
    }
  }
  // ResNet's residual add writes into the residual buffer.
  const HostTensor a = random_tensor({1, 16, 4, 4}, 9), b = random_tensor({1, 16, 4, 4}, 10);
  const ElementwiseBinaryDesc desc{{1, 16, 4, 4, 8}, BinaryOp::add};
  const std::vector<float> in = to_layout(a, desc.tensor.layout());
  std::vector<float> inout = to_layout(b, desc.tensor.layout());
  compile_elementwise_binary(desc, {64})({.input = in.data(), .residual = inout.data(), .output = inout.data()});
  check_exact(reference::binary(reference::BinaryOp::add, a, b), from_layout(inout, a.shape, desc.tensor.layout()),
              "in place");
}

TEST_CASE("mul and add with a broadcast N x C x 1 x 1 operand (squeeze-excite)") {
  for (const auto& shape : kShapes) {
    const HostTensor a = random_tensor(shape, 11), factor = random_tensor({shape[0], shape[1], 1, 1}, 12);
    for (BinaryOp op : {BinaryOp::mul, BinaryOp::add}) {
      const auto ref_op = op == BinaryOp::add ? reference::BinaryOp::add : reference::BinaryOp::mul;
      const HostTensor expected = reference::binary(ref_op, a, factor);
      for (const auto& [block, schedule] : cases_for(shape[1])) {
        const ElementwiseBinaryDesc desc{tensor_of(shape, block), op, BinaryOperand::batch_channel};
        check_exact(expected, run_binary(desc, schedule, a, factor), desc.str() + " " + schedule.str());
      }
    }
  }
}

TEST_CASE("sub, div, max, min and prelu of same-shaped tensors") {
  for (const auto& shape : kShapes) {
    // b stays away from 0 (div); a has both signs (prelu), and both win max / min.
    const HostTensor a = random_tensor(shape, 17, -2.0F, 2.0F), b = random_tensor(shape, 18, 0.5F, 2.0F);
    for (BinaryOp op : {BinaryOp::sub, BinaryOp::div, BinaryOp::max, BinaryOp::min, BinaryOp::prelu}) {
      for (const auto& [block, schedule] : cases_for(shape[1])) {
        const ElementwiseBinaryDesc desc{tensor_of(shape, block), op};
        check_exact(reference_binary(desc, a, b), run_binary(desc, schedule, a, b), desc.str() + " " + schedule.str());
      }
    }
  }
}

TEST_CASE("binary ops with a per-channel operand on either side: N x C x 1 x 1 activations, [C] constants") {
  for (const auto& shape : kShapes) {
    const HostTensor a = random_tensor(shape, 19, -2.0F, 2.0F);
    const HostTensor per_sample = random_tensor({shape[0], shape[1], 1, 1}, 20, 0.5F, 2.0F);
    const HostTensor constant = random_tensor({shape[1], 1, 1}, 21, 0.5F, 2.0F);
    for (BinaryOp op : {BinaryOp::sub, BinaryOp::div, BinaryOp::max, BinaryOp::prelu}) {
      for (const bool other_first : {false, true}) {
        for (const auto& [block, schedule] : cases_for(shape[1])) {
          for (const BinaryOperand other : {BinaryOperand::batch_channel, BinaryOperand::channel}) {
            const ElementwiseBinaryDesc desc{tensor_of(shape, block), op, other, other_first};
            const HostTensor& b = other == BinaryOperand::channel ? constant : per_sample;
            check_exact(reference_binary(desc, a, b), run_binary(desc, schedule, a, b),
                        desc.str() + " " + schedule.str());
          }
        }
      }
    }
  }
}

TEST_CASE("blocks whose channel pattern spans several vectors: 24, 12, 3, 20 and 7 channels in one block") {
  for (int64_t channels : {24, 12, 3, 20, 7}) {
    const std::vector<int64_t> shape{2, channels, 3, 5};
    const HostTensor a = random_tensor(shape, 13), factor = random_tensor({2, channels, 1, 1}, 14);
    const ElementwiseBinaryDesc desc{tensor_of(shape, channels), BinaryOp::mul, BinaryOperand::batch_channel};
    for (const ElementwiseSchedule& schedule : kSchedules)
      check_exact(reference::binary(reference::BinaryOp::mul, a, factor), run_binary(desc, schedule, a, factor),
                  desc.str() + " " + schedule.str());
  }
}

TEST_CASE("flatten is a view for 1 x 1 images and for NCHW") {
  const FlattenLayouts pooled = flatten_layouts({1, 2048, 1, 1, 16});
  CHECK(pooled.input.str() == "NCHW16c");
  CHECK(pooled.output.str() == "NC16c");
  CHECK(flatten_layouts({1, 256, 6, 6, 1}).output.str() == "NC1c");
  CHECK_THROWS_WITH_AS(validate_flatten({1, 256, 6, 6, 16}), doctest::Contains("convert the input to NCHW first"),
                       KernelError);
  const HostTensor x = random_tensor({2, 48, 1, 1}, 15);
  const TensorDesc desc{2, 48, 1, 1, 16};
  const std::vector<float> in = to_layout(x, desc.layout());
  std::vector<float> out = nan_buffer(desc.elements());
  compile_flatten(desc, {})({.input = in.data(), .output = out.data()});
  const HostTensor flat = from_layout(out, {2, 48}, flatten_layouts(desc).output);
  check_exact(reference::reshape(x, {2, 48}), flat, "flatten");
}

TEST_CASE("channel shuffle in every block, shuffled channels crossing blocks") {
  // (shape, groups): ShuffleNet's 2 groups, 3 groups of 8, and groups = channels (identity).
  const std::vector<std::pair<std::vector<int64_t>, int64_t>> cases = {
      {{1, 32, 5, 3}, 2}, {{2, 24, 3, 4}, 3}, {{1, 16, 2, 2}, 4}, {{1, 8, 3, 3}, 8}};
  for (const auto& [shape, groups] : cases) {
    const HostTensor x = random_tensor(shape, 22);
    const HostTensor expected = reference::channel_shuffle(x, groups);
    for (int64_t block : blocks_dividing(shape[1])) {
      const ChannelShuffleDesc desc{tensor_of(shape, block), groups};
      const std::vector<float> in = to_layout(x, desc.tensor.layout());
      std::vector<float> out = nan_buffer(desc.tensor.elements());
      run_kernel(compile_channel_shuffle(desc), {.input = in.data(), .output = out.data()}, 3);
      check_exact(expected, from_layout(out, shape, desc.tensor.layout()), desc.str());
    }
  }
  CHECK_THROWS_WITH_AS(compile_channel_shuffle({{1, 12, 2, 2, 4}, 5}), doctest::Contains("groups must be positive"),
                       KernelError);
}

TEST_CASE("elementwise schedule spaces, layouts and invalid descs") {
  const ActivationDesc relu{{1, 256, 56, 56, 16}, ActivationOp::relu};
  CHECK(activation_space(relu).str() == "tile_chunk: [1024, 4096, 16384, 65536, 262144, 802816]\n");
  CHECK(batch_norm_space({{1, 256, 56, 56, 16}}).values("tile_chunk").back() == 56 * 56 * 16);
  const ElementwiseBinaryDesc se{{1, 64, 8, 8, 16}, BinaryOp::mul, BinaryOperand::batch_channel};
  CHECK(elementwise_binary_space(se).values("tile_chunk") == std::vector<int64_t>{1024});
  CHECK(elementwise_binary_layouts(se).other.str() == "NCHW16c");
  CHECK(elementwise_schedule_at(activation_space(relu), 2) == ElementwiseSchedule{16384});
  CHECK_THROWS_WITH_AS(compile_activation({{1, 24, 5, 5, 16}, ActivationOp::sigmoid}, {}),
                       doctest::Contains("invalid sigmoid desc sigmoid_n1_c24_h5_w5_x16: channel block 16 must divide"),
                       KernelError);
  CHECK_THROWS_WITH_AS(compile_activation(relu, {0}), doctest::Contains("chunk must be positive"), KernelError);
  CHECK_THROWS_WITH_AS(fold_batch_norm(std::vector<float>(3), std::vector<float>(3), std::vector<float>(2),
                                       std::vector<float>(3), 1e-5F),
                       doctest::Contains("same length"), KernelError);
  // Operands an operator reads are required arguments; the others may be null.
  const std::vector<float> in(64);
  std::vector<float> out(64);
  const KernelArgs no_scale{.input = in.data(), .output = out.data()};
  CHECK_THROWS_WITH_AS(compile_batch_norm({{1, 16, 2, 2, 16}}, {})(no_scale),
                       doctest::Contains("weight must not be null"), KernelError);
  CHECK_THROWS_WITH_AS(compile_elementwise_binary({{1, 16, 2, 2, 16}, BinaryOp::add}, {})(no_scale),
                       doctest::Contains("no residual was passed"), KernelError);
  CHECK_NOTHROW(compile_activation({{1, 16, 2, 2, 16}, ActivationOp::relu}, {})(no_scale));
}

TEST_CASE("silu in every block, and at both ends where its sigmoid saturates") {
  for (const auto& shape : kShapes) {
    const HostTensor x = random_tensor(shape, 17, -8.0F, 8.0F);
    const HostTensor expected = reference_activation({.op = ActivationOp::silu}, x);
    for (const auto& [block, schedule] : cases_for(shape[1])) {
      const ActivationDesc desc{tensor_of(shape, block), ActivationOp::silu};
      check_close(expected, run_activation(desc, schedule, x), 1e-6, 1e-6, desc.str() + " " + schedule.str());
    }
  }
  HostTensor x({1, 4, 1, 2});
  x.data = {-200.0F, -30.0F, -1e-3F, 0.0F, 1e-3F, 20.0F, 88.0F, 1000.0F};
  const HostTensor actual = run_activation({{1, 4, 1, 2, 4}, ActivationOp::silu}, {}, x);
  CHECK(actual.data[0] == 0.0F);  // sigmoid 0, not NaN, where e^200 overflows
  CHECK(actual.data[3] == 0.0F);
  CHECK(actual.data[7] == 1000.0F);
  check_close(reference_activation({.op = ActivationOp::silu}, x), actual, 1e-5, 0.0, "saturation");
}
