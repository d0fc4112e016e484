// Blocked concat against the NCHW reference: same blocks, inputs in other blocks than the
// output (including plain NCHW inputs into NCHW16c), channel counts like inception's and
// densenet's, batch 2. Concat only moves data, so results must match exactly.

#include "layoutopt/kernels/concat.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/reference/tensor_ops.h"
#include "op_check.h"

namespace {

using namespace layoutopt::kernels;
using namespace layoutopt::kernels::testing;

// Concatenates random tensors with these (channels, block) pairs into out_block.
void check_concat(const std::vector<std::pair<int64_t, int64_t>>& parts, int64_t out_block, int64_t batch = 1,
                  int64_t h = 5, int64_t w = 7) {
  ConcatDesc desc;
  desc.out_block = out_block;
  std::vector<HostTensor> inputs;
  std::vector<std::vector<float>> blocked;
  for (const auto& [channels, block] : parts) {
    desc.inputs.push_back({batch, channels, h, w, block});
    inputs.push_back(random_tensor({batch, channels, h, w}, static_cast<unsigned>(inputs.size() + 20)));
    blocked.push_back(to_layout(inputs.back(), desc.inputs.back().layout()));
  }
  std::vector<const HostTensor*> reference_inputs;
  std::vector<const float*> pointers;
  for (size_t i = 0; i < inputs.size(); ++i) {
    reference_inputs.push_back(&inputs[i]);
    pointers.push_back(blocked[i].data());
  }
  const TensorDesc out = desc.output();
  std::vector<float> output = nan_buffer(out.elements());
  run_concat(compile_concat(desc), pointers, output.data());
  check_exact(reference::concat(reference_inputs, 1), from_layout(output, out.shape(), out.layout()), desc.str());
}

}  // namespace

TEST_CASE("concat of inputs sharing the output block") {
  for (int64_t block : {1, 4, 8, 16, 32}) check_concat({{32, block}, {64, block}, {32, block}}, block);
  check_concat({{24, 8}, {8, 8}, {40, 8}}, 8, 2, 3, 3);  // C = 24 with block 8, batch 2
}

TEST_CASE("concat of inputs in other blocks than the output") {
  check_concat({{32, 16}, {32, 8}, {64, 32}}, 16);  // smaller and larger input blocks
  check_concat({{48, 1}, {16, 4}}, 16, 2);          // plain NCHW input into NCHW16c
  check_concat({{24, 24}, {48, 16}}, 8);            // 24-wide input block: runs of 8
  check_concat({{24, 8}, {36, 12}}, 12, 1, 4, 3);   // blocks 8 and 12: runs of gcd = 4
  check_concat({{64, 16}, {32, 32}}, 1, 1, 3, 2);   // blocked inputs into plain NCHW
}

TEST_CASE("concat layouts, kernels per input and invalid descs") {
  const ConcatDesc desc{{{1, 64, 28, 28, 16}, {1, 96, 28, 28, 32}}, 16};
  const ConcatLayouts layouts = concat_layouts(desc);
  CHECK(layouts.inputs[1].str() == "NCHW32c");
  CHECK(layouts.output.str() == "NCHW16c");
  CHECK(desc.output().channels == 160);
  const std::vector<Kernel> kernels = compile_concat(desc);
  REQUIRE(kernels.size() == 2);
  CHECK(kernels[1].work_items() == 96 / 16 * 28);  // (n, output block, row)
  CHECK_THROWS_WITH_AS(concat_layouts({{{1, 24, 4, 4, 8}, {1, 16, 4, 4, 16}}, 16}),
                       doctest::Contains("input 0 has 24 channels, not a multiple of out_block 16"), KernelError);
  CHECK_THROWS_WITH_AS(concat_layouts({{{1, 16, 4, 4, 8}, {1, 16, 4, 5, 16}}, 16}),
                       doctest::Contains("input 1 differs from input 0"), KernelError);
  CHECK_THROWS_WITH_AS(concat_layouts({{}, 16}), doctest::Contains("no inputs"), KernelError);
  const float* one = nullptr;
  CHECK_THROWS_WITH_AS(run_concat(kernels, std::span<const float* const>(&one, 1), nullptr),
                       doctest::Contains("for 2 copy kernels"), KernelError);
}

TEST_CASE("inputs already at their slice of the output are not copied") {
  const ConcatDesc desc{{{1, 32, 5, 7, 16}, {1, 16, 5, 7, 8}, {1, 48, 5, 7, 16}}, 16};
  CHECK(concat_slice_offsets(desc) == std::vector<int64_t>{0, -1, (32 + 16) * 5 * 7});  // input 1: another block
  CHECK(concat_slice_offsets({{{2, 32, 5, 7, 16}, {2, 16, 5, 7, 16}}, 16}) == std::vector<int64_t>{-1, -1});  // batch 2
  std::vector<HostTensor> inputs;
  std::vector<std::vector<float>> blocked;
  for (size_t i = 0; i < desc.inputs.size(); ++i) {
    inputs.push_back(random_tensor(desc.inputs[i].shape(), static_cast<unsigned>(40 + i)));
    blocked.push_back(to_layout(inputs.back(), desc.inputs[i].layout()));
  }
  const TensorDesc out = desc.output();
  const std::vector<int64_t> offsets = concat_slice_offsets(desc);
  // Input 2 was written into the output by its producer; the NaNs everywhere else show
  // that inputs 0 and 1, which live elsewhere, are still copied.
  std::vector<float> output = nan_buffer(out.elements());
  std::copy(blocked[2].begin(), blocked[2].end(), output.begin() + offsets[2]);
  const std::vector<const float*> pointers{blocked[0].data(), blocked[1].data(), output.data() + offsets[2]};
  run_concat(compile_concat(desc), pointers, output.data(), offsets);
  check_exact(reference::concat({&inputs[0], &inputs[1], &inputs[2]}, 1), from_layout(output, out.shape(), out.layout()),
              desc.str());
  const std::vector<int64_t> too_few{0};
  CHECK_THROWS_AS(run_concat(compile_concat(desc), pointers, output.data(), too_few), KernelError);
}
