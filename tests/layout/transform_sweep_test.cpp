// Every activation transform the planner can ask for, value-exact: each ordered pair of
// channel blocks 1..64 that divide the channel count (plain NCHW / NC being block 1), for
// 4-D and 2-D (dense) tensors, including odd channel counts and blocks that are not powers
// of two. Each result is checked element by element against hand-written offsets
// (reference_offsets.h), so a wrong strategy for any one pair fails here.

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "layoutopt/layout/transform.h"
#include "reference_offsets.h"

using layoutopt::layout::Layout;
using layoutopt::layout::LayoutTransform;
using namespace layoutopt::layout::testing;

namespace {

constexpr int64_t kLargestBlock = 64;  // the widest block any kernel schedule offers

std::vector<int64_t> blocks_dividing(int64_t channels) {
  std::vector<int64_t> blocks;
  for (int64_t b = 1; b <= std::min(channels, kLargestBlock); ++b)
    if (channels % b == 0) blocks.push_back(b);
  return blocks;
}

Layout blocked_layout(size_t rank, int64_t block) {
  const std::string plain = rank == 4 ? "NCHW" : "NC";
  return Layout::parse(block == 1 ? plain : plain + std::to_string(block) + "c");
}

OffsetFn blocked_offset(const std::vector<int64_t>& shape, int64_t block) {
  return shape.size() == 4 ? nchwc_offset(shape, block) : ncc_offset(shape, block);
}

// Transforms a tagged tensor through every ordered block pair; returns the pairs checked.
int sweep(const std::vector<int64_t>& shape) {
  int pairs = 0;
  for (const int64_t from : blocks_dividing(shape[1]))
    for (const int64_t to : blocks_dividing(shape[1])) {
      if (from == to) continue;
      const Layout src = blocked_layout(shape.size(), from), dst = blocked_layout(shape.size(), to);
      INFO(src.str(), " -> ", dst.str(), " for a tensor of ", shape.size(), " dims, C = ", shape[1]);
      const LayoutTransform transform = LayoutTransform::for_activation(shape, src, dst);
      const std::vector<float> moved = transform.apply(tagged_tensor(shape, blocked_offset(shape, from)));
      CHECK(count_misplaced(shape, blocked_offset(shape, to), moved) == 0);
      ++pairs;
    }
  return pairs;
}

}  // namespace

TEST_CASE("every block pair of a 4-D activation moves every element where its layout says") {
  // Power-of-two, mixed and odd channel counts; spatial sizes odd, 1x1 and a single row.
  const std::vector<std::vector<int64_t>> shapes{{1, 64, 5, 7}, {2, 96, 3, 3}, {1, 48, 1, 1}, {2, 24, 7, 1},
                                                 {1, 15, 4, 3}, {1, 3, 6, 5},  {1, 128, 2, 3}};
  int pairs = 0;
  for (const auto& shape : shapes) pairs += sweep(shape);
  // n blocks divide C: n (n - 1) ordered pairs (7, 11, 10, 8, 4, 2 and 7 blocks).
  CHECK(pairs == 42 + 110 + 90 + 56 + 12 + 2 + 42);
}

TEST_CASE("every block pair of a dense layer's NC activation moves every element where its layout says") {
  const std::vector<std::vector<int64_t>> shapes{{2, 64}, {3, 96}, {1, 15}, {2, 1000}};
  int pairs = 0;
  for (const auto& shape : shapes) pairs += sweep(shape);
  CHECK(pairs == 42 + 110 + 12 + 90);  // 7, 11, 4 and 10 blocks
}
