// dense kernels against the NC reference, with blocked inputs and outputs.

#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "kernel_check.h"
#include "layoutopt/kernels/dense.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/reference/dense.h"

namespace {

using namespace layoutopt::kernels;
using layoutopt::layout::Layout;

std::vector<float> random_vector(size_t size, std::mt19937& rng) {
  std::uniform_real_distribution<float> uniform(-1.0F, 1.0F);
  std::vector<float> data(size);
  for (float& value : data) value = uniform(rng);
  return data;
}

void check_schedule(const DenseDesc& desc, const DenseSchedule& schedule) {
  std::mt19937 rng(3);
  const auto n = static_cast<size_t>(desc.batch), in = static_cast<size_t>(desc.in_features),
             out = static_cast<size_t>(desc.out_features);
  const auto input = random_vector(n * in, rng), weight = random_vector(out * in, rng), bias = random_vector(out, rng),
             residual = random_vector(n * out, rng);
  std::vector<float> expected(n * out);
  reference::dense(desc, input.data(), weight.data(), bias.data(), residual.data(), expected.data());

  const DenseLayouts layouts = dense_layouts(desc, schedule);
  const std::vector<int64_t> in_shape{desc.batch, desc.in_features}, w_shape{desc.out_features, desc.in_features},
      out_shape{desc.batch, desc.out_features};
  const Layout nc = Layout::parse("NC");
  const Layout oi = Layout::parse("OI");
  const auto blocked_input = testing::relayout(input, in_shape, nc, nc, layouts.input);
  const auto blocked_weight = testing::relayout(weight, w_shape, oi, oi, layouts.weight);
  const auto blocked_residual = testing::relayout(residual, out_shape, nc, nc, layouts.output);
  std::vector<float> output(n * out);
  compile_dense(desc, schedule)(
      {blocked_input.data(), blocked_weight.data(), bias.data(), blocked_residual.data(), output.data()});
  testing::check_close(expected, testing::relayout(output, out_shape, nc, layouts.output, nc), desc.in_features + 2,
                       desc.str() + " " + schedule.str());
}

}  // namespace

TEST_CASE("dense with blocked input and output, a spread of blockings") {
  const DenseDesc desc{2, 24, 40, {}};
  const ConfigSpace space = dense_space(desc);
  // Every 5th point: with 8 x 8 points this still visits each in_bn and each out_bn.
  for (int64_t i = 0; i < space.size(); i += 5) check_schedule(desc, dense_schedule_at(space, i));
}

TEST_CASE("dense classifier shape with fused epilogues") {
  DenseDesc desc{1, 512, 100, {true, Activation::Relu, false, Activation::None}};
  check_schedule(desc, {16, 20});
  check_schedule(desc, {512, 100});
  desc.epilogue = {true, Activation::None, true, Activation::Relu6};
  check_schedule(desc, {8, 50});
}

TEST_CASE("dense over many rows: register tiles of rows, remainder tiles and epilogues") {
  const Epilogue gelu{true, Activation::Gelu, false, Activation::None};
  const Epilogue bias_residual{true, Activation::None, true, Activation::None};
  // 197 = ViT-B/16's tokens, 100 = 50 tokens x batch 2 (ViT-B/32), 7 below one tile.
  for (const int64_t rows : {1, 7, 100, 197}) {
    for (const Epilogue& epilogue : {Epilogue{}, gelu, bias_residual}) {
      const DenseDesc desc{rows, 96, 64, epilogue};
      CAPTURE(rows);
      check_schedule(desc, dense_default_schedule(desc));
      check_schedule(desc, {32, 32, true, std::min<int64_t>(rows, 12)});
      check_schedule(desc, {8, 64, false, std::min<int64_t>(rows, 6)});
      check_schedule(desc, {96, 16, false, std::min<int64_t>(rows, 28)});
    }
  }
}

TEST_CASE("dense default schedule tiles rows when there are several") {
  const DenseDesc tokens{197, 768, 3072, {}};
  const DenseSchedule many = dense_default_schedule(tokens);
  CHECK(many.rows_bn > 1);
  CHECK_NOTHROW(validate_dense(tokens, many));
  const DenseDesc classifier{1, 2048, 1000, {}};
  CHECK(dense_default_schedule(classifier).rows_bn == 1);
  CHECK_THROWS_WITH_AS(validate_dense(classifier, {16, 8, false, 2}), doctest::Contains("rows_bn must lie"),
                       KernelError);
}
