// Layer normalization against the reference (kernels/src/reference/elementwise.cpp, in
// double): over the channels of NCHW[x]c tensors in every block dividing C (the form of
// ConvNeXt's norms, whose transposes the import folds into the axis), over the last axis of
// token tensors of rank 3 and 4, with C a vector multiple or not (17, 20, 7 channels).
// Tolerance 1e-5 relative plus 2e-5 absolute: the output is centered, so it cancels.

#include "layoutopt/kernels/layer_norm.h"

#include <doctest/doctest.h>

#include <vector>

#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/reference/elementwise.h"
#include "op_check.h"

namespace {

using namespace layoutopt::kernels;
using namespace layoutopt::kernels::testing;
namespace layout = layoutopt::layout;

struct Parameters {
  HostTensor scale;
  HostTensor shift;
};

Parameters parameters(int64_t channels) {
  return {random_tensor({channels}, 5, 0.5F, 1.5F), random_tensor({channels}, 6, -0.5F, 0.5F)};
}

/// Runs the kernel of `desc` on `x` stored in `layout` and compares with the reference over
/// `axis`; `absolute` admits the rounding of inputs far from zero.
void check_layer_norm(const HostTensor& x, int64_t axis, const LayerNormDesc& desc, const layout::Layout& layout,
                      double absolute = 2e-5) {
  const Parameters p = parameters(desc.channels);
  const std::vector<float> in = to_layout(x, layout);
  std::vector<float> out = nan_buffer(desc.elements());
  compile_layer_norm(desc)(
      {.input = in.data(), .weight = p.scale.data.data(), .bias = p.shift.data.data(), .output = out.data()});
  const HostTensor expected = reference::layer_norm(x, axis, p.scale.data.data(), p.shift.data.data(), desc.epsilon);
  check_close(expected, from_layout(out, x.shape, layout), 1e-5, absolute, desc.str() + " in " + layout.str());
}

}  // namespace

TEST_CASE("layer norm over the channels of NCHW[x]c in every block, C a vector multiple or not") {
  for (const int64_t channels : {96, 40, 20, 7}) {
    const HostTensor x = random_tensor({2, channels, 3, 5}, 11, -2.0F, 3.0F);
    std::vector<int64_t> blocks = blocks_dividing(channels);
    blocks.push_back(channels);  // one block holding every channel
    for (const int64_t block : blocks)
      check_layer_norm(x, 1, {.outer = 2, .channels = channels, .inner = 15, .block = block}, layout::Layout::nchwc(block));
  }
}

TEST_CASE("layer norm over the last axis of rank-3 and rank-4 token tensors") {
  for (const int64_t channels : {768, 100, 17, 16}) {
    const HostTensor tokens = random_tensor({2, 7, channels}, 12, -2.0F, 3.0F);
    for (const int64_t block : {int64_t{1}, channels})  // the same memory for every block
      check_layer_norm(tokens, 2, {.outer = 14, .channels = channels, .inner = 1, .block = block},
                       layout::canonical_data_layout(3));
    const HostTensor windows = random_tensor({1, 3, 4, channels}, 13, -1.0F, 1.0F);
    check_layer_norm(windows, 3, {.outer = 12, .channels = channels, .inner = 1, .block = 1},
                     layout::canonical_data_layout(4));
  }
}

TEST_CASE("layer norm of values far from zero keeps their variance (two passes, not E[x^2] - E[x]^2)") {
  // At 1000 +- 1, E[x^2] is 1e6 and fp32 rounds it by 0.06: a fifth of the variance. The
  // inputs themselves are rounded to 6e-5, hence the absolute tolerance.
  const HostTensor x = random_tensor({1, 64, 4, 4}, 14, 999.0F, 1001.0F);
  check_layer_norm(x, 1, {.outer = 1, .channels = 64, .inner = 16, .block = 16, .epsilon = 1e-6F},
                   layout::Layout::nchwc(16), 1e-3);
}

TEST_CASE("layer norm runs in place and splits its positions into ranges") {
  const HostTensor x = random_tensor({1, 48, 5, 5}, 15, -1.0F, 1.0F);
  const LayerNormDesc desc{.outer = 1, .channels = 48, .inner = 25, .block = 16};
  const Parameters p = parameters(48);
  std::vector<float> data = to_layout(x, layout::Layout::nchwc(16));
  run_kernel(compile_layer_norm(desc),
             {.input = data.data(), .weight = p.scale.data.data(), .bias = p.shift.data.data(), .output = data.data()}, 3);
  check_close(reference::layer_norm(x, 1, p.scale.data.data(), p.shift.data.data(), desc.epsilon),
              from_layout(data, x.shape, layout::Layout::nchwc(16)), 1e-5, 2e-5, desc.str());
}

TEST_CASE("invalid layer norm descs") {
  CHECK_THROWS_WITH_AS(compile_layer_norm({.outer = 1, .channels = 20, .inner = 4, .block = 16}),
                       doctest::Contains("channel block 16 must divide"), KernelError);
  CHECK_THROWS_WITH_AS(compile_layer_norm({.outer = 0, .channels = 20}), doctest::Contains("extents must be positive"),
                       KernelError);
  CHECK_THROWS_WITH_AS(compile_layer_norm({.outer = 1, .channels = 20, .epsilon = -1.0F}),
                       doctest::Contains("epsilon"), KernelError);
}
