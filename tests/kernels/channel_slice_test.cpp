// Blocked channel slice against the NCHW reference: ShuffleNet's halves, ranges starting
// mid-tensor at block multiples, blocks 4, 8 and 16, batch 1 and 2. A slice only moves data,
// so results must match exactly.

#include "layoutopt/kernels/channel_slice.h"

#include <doctest/doctest.h>

#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/reference/tensor_ops.h"
#include "op_check.h"

namespace {

using namespace layoutopt::kernels;
using namespace layoutopt::kernels::testing;

void check_slice(const ChannelSliceDesc& desc) {
  const TensorDesc& in = desc.input;
  const HostTensor input = random_tensor(in.shape(), 31);
  const std::vector<float> blocked = to_layout(input, in.layout());
  const TensorDesc out = desc.output();
  std::vector<float> output = nan_buffer(out.elements());
  compile_channel_slice(desc)({.input = blocked.data(), .output = output.data()});
  check_exact(reference::slice(input, 1, desc.start, desc.end, 1), from_layout(output, out.shape(), out.layout()),
              desc.str());
}

}  // namespace

TEST_CASE("channel slice in blocks 4, 8 and 16 at block-multiple offsets") {
  for (int64_t block : {4, 8, 16})
    for (int64_t batch : {1, 2}) {
      const TensorDesc input{batch, 64, 5, 7, block};
      check_slice({input, 0, 32});                 // ShuffleNet's first half
      check_slice({input, 32, 64});                // and its second
      check_slice({input, block, 3 * block});      // a range starting one block in
      check_slice({input, 64 - block, 64});        // the last block alone
    }
}

TEST_CASE("channel slice in plain NCHW and of ShuffleNet's odd halves") {
  check_slice({{2, 10, 3, 4, 1}, 3, 8});     // block 1: any range
  check_slice({{1, 116, 4, 4, 58}, 58, 116});  // 116 channels split 58 + 58 in their own block
  check_slice({{2, 116, 3, 3, 2}, 0, 58});
}

TEST_CASE("channel slice layouts, work items and invalid descs") {
  const ChannelSliceDesc desc{{1, 64, 28, 28, 16}, 16, 48};
  const ChannelSliceLayouts layouts = channel_slice_layouts(desc);
  CHECK(layouts.input.str() == "NCHW16c");
  CHECK(layouts.output.str() == "NCHW16c");
  CHECK(desc.output().channels == 32);
  CHECK(compile_channel_slice(desc).work_items() == 32 / 16 * 28);  // (n, output block, row)
  CHECK_THROWS_WITH_AS(compile_channel_slice({{1, 64, 4, 4, 16}, 8, 40}),
                       doctest::Contains("channel block 16 must divide start 8 and the slice's 32 channels"),
                       KernelError);
  CHECK_THROWS_WITH_AS(compile_channel_slice({{1, 64, 4, 4, 16}, 0, 24}),
                       doctest::Contains("must divide start 0 and the slice's 24 channels"), KernelError);
  CHECK_THROWS_WITH_AS(channel_slice_layouts({{1, 64, 4, 4, 16}, 48, 80}),
                       doctest::Contains("channels [48, 80) are not within the input's 64"), KernelError);
  CHECK_THROWS_WITH_AS(channel_slice_layouts({{1, 64, 4, 4, 16}, 32, 32}), doctest::Contains("start < end"),
                       KernelError);
}
