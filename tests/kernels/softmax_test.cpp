// Softmax over the channels of N x C logits against the reference, to 1e-5 relative: vector
// multiples and tails (C = 1000, 10, 24, 7), blocks that divide C, batch 3.

#include "layoutopt/kernels/softmax.h"

#include <doctest/doctest.h>

#include <limits>

#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/reference/tensor_ops.h"
#include "op_check.h"

namespace {

using namespace layoutopt::kernels;
using namespace layoutopt::kernels::testing;

// `absolute` admits results below fp32's normal range, which the kernel's exp flushes to 0.
void check_softmax(const SoftmaxDesc& desc, float spread, double absolute = 0.0) {
  const HostTensor x = random_tensor({desc.batch, desc.channels}, 31, -spread, spread);
  const SoftmaxLayouts layouts = softmax_layouts(desc);
  const std::vector<float> in = to_layout(x, layouts.input);
  std::vector<float> out = nan_buffer(desc.batch * desc.channels);
  compile_softmax(desc)({.input = in.data(), .output = out.data()});
  check_close(reference::softmax(x, 1), from_layout(out, x.shape, layouts.output), 1e-5, absolute, desc.str());
}

}  // namespace

TEST_CASE("softmax over channels for vector multiples, tails and every dividing block") {
  for (int64_t channels : {1000, 10, 24, 7, 64})
    for (int64_t block : {1, 4, 8, 16, 32})
      if (channels % block == 0) check_softmax({3, channels, block}, 5.0F);
}

TEST_CASE("softmax of large logits does not overflow") {
  // exp(80) would overflow fp32 without the max shift; exp(-160) underflows.
  check_softmax({2, 100, 4}, 80.0F, std::numeric_limits<float>::min());
}

TEST_CASE("softmax layouts and invalid descs") {
  CHECK(softmax_layouts({1, 1000, 8}).input.str() == "NC8c");
  CHECK_THROWS_WITH_AS(compile_softmax({1, 1000, 16}), doctest::Contains("channel block 16 must divide"), KernelError);
  CHECK_THROWS_WITH_AS(compile_softmax({0, 10, 1}), doctest::Contains("batch and channels must be positive"),
                       KernelError);
}
