// Transforms into layout::transposed_layout(perm), the runtime's lowering of ONNX Transpose:
// random permutations of ranks 2-6 with odd sizes and Swin's window and attention shapes,
// each checked element by element against offsets written out here (row-major over the
// permuted axes), and back again to the original bytes.

#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "layoutopt/layout/transform.h"
#include "reference_offsets.h"
#include "support/omp_threads.h"

using layoutopt::layout::canonical_data_layout;
using layoutopt::layout::Layout;
using layoutopt::layout::LayoutTransform;
using layoutopt::layout::TransformPath;
using layoutopt::layout::transposed_layout;
using namespace layoutopt::layout::testing;

namespace {

// Row-major over the axes in the order `perm` lists them: where a transposed tensor puts x.
OffsetFn permuted_offset(const std::vector<int64_t>& shape, const std::vector<int64_t>& perm) {
  return [=](const std::vector<int64_t>& x) {
    int64_t offset = 0;
    for (const int64_t axis : perm) offset = offset * shape[static_cast<size_t>(axis)] + x[static_cast<size_t>(axis)];
    return offset;
  };
}

std::string shape_text(const std::vector<int64_t>& values) {
  std::string text;
  for (const int64_t value : values) text += (text.empty() ? "" : "x") + std::to_string(value);
  return text;
}

std::vector<int64_t> identity_perm(size_t rank) {
  std::vector<int64_t> perm(rank);
  std::iota(perm.begin(), perm.end(), 0);
  return perm;
}

// Canonical -> transposed against the written-out offsets, then back; returns the forward path.
TransformPath check_permute(const std::vector<int64_t>& shape, const std::vector<int64_t>& perm) {
  const Layout canonical = canonical_data_layout(shape.size());
  const Layout permuted = transposed_layout(perm);
  INFO("shape ", shape_text(shape), " perm ", shape_text(perm), ": ", canonical.str(), " -> ", permuted.str());
  const std::vector<float> original = tagged_tensor(shape, permuted_offset(shape, identity_perm(shape.size())));
  const LayoutTransform forward = LayoutTransform::for_activation(shape, canonical, permuted);
  const std::vector<float> moved = forward.apply(original);
  CHECK(count_misplaced(shape, permuted_offset(shape, perm), moved) == 0);
  CHECK(LayoutTransform::for_activation(shape, permuted, canonical).apply(moved) == original);
  return forward.path();
}

}  // namespace

TEST_CASE("random permutations of ranks 2 to 6 with odd sizes move every element where the permutation says") {
  std::mt19937 random(20261129);
  const std::vector<int64_t> extents{1, 2, 3, 5, 7, 9, 13, 17, 33};
  int checked = 0;
  for (size_t rank = 2; rank <= 6; ++rank)
    for (int trial = 0; trial < 40; ++trial) {
      std::vector<int64_t> shape(rank);
      int64_t elements = 1;
      for (int64_t& extent : shape) {
        // Keeps tensors below ~100 Ki elements so that the element-wise check stays quick.
        do extent = extents[random() % extents.size()];
        while (elements * extent > 100000);
        elements *= extent;
      }
      std::vector<int64_t> perm = identity_perm(rank);
      std::shuffle(perm.begin(), perm.end(), random);
      check_permute(shape, perm);
      ++checked;
    }
  CHECK(checked == 200);
}

TEST_CASE("Swin's window and attention transposes copy runs or transpose tiles, never gather") {
  // Window partition and reverse of stage 1 ([B, H/7, 7, W/7, 7, C] swaps the middle axes):
  // runs of 7 x 96 floats stay contiguous.
  CHECK(check_permute({1, 8, 7, 8, 7, 96}, {0, 1, 3, 2, 4, 5}) == TransformPath::copy_runs);
  // q, k, v split: [windows, 49, 3, heads, 32] -> [3, windows, heads, 49, 32].
  CHECK(check_permute({64, 49, 3, 3, 32}, {2, 0, 3, 1, 4}) == TransformPath::copy_runs);
  CHECK(check_permute({1, 64, 49, 3, 3, 32}, {3, 0, 1, 4, 2, 5}) == TransformPath::copy_runs);
  // k transposed for q @ k^T, and the heads folded back: the innermost axis moves.
  CHECK(check_permute({64, 3, 49, 32}, {0, 1, 3, 2}) == TransformPath::transpose);
  CHECK(check_permute({1, 96, 56, 56}, {0, 2, 3, 1}) == TransformPath::transpose);
  CHECK(check_permute({2, 3, 5, 7, 11, 13}, {5, 4, 3, 2, 1, 0}) == TransformPath::transpose);
}

TEST_CASE("a channel-blocked source transposes exactly, its blocks split out of the channel axis") {
  const std::vector<int64_t> shape{2, 48, 5, 3, 7};
  const std::vector<int64_t> perm{0, 2, 3, 4, 1};
  for (const int64_t block : {8, 16}) {
    // NCDHW[b]c written out: row-major over (N, C/b, D, H, W, b).
    const OffsetFn blocked = [=](const std::vector<int64_t>& x) {
      return ((((x[0] * (shape[1] / block) + x[1] / block) * shape[2] + x[2]) * shape[3] + x[3]) * shape[4] + x[4]) *
                 block +
             x[1] % block;
    };
    INFO("block ", block);
    const LayoutTransform transform =
        LayoutTransform::for_activation(shape, Layout::channel_blocked(shape.size(), block), transposed_layout(perm));
    CHECK(transform.path() != TransformPath::gather);
    CHECK(count_misplaced(shape, permuted_offset(shape, perm), transform.apply(tagged_tensor(shape, blocked))) == 0);
  }
}

TEST_CASE("permutations give the same bytes on one thread and on two") {
  const std::vector<int64_t> shape{3, 17, 5, 19, 33};
  const std::vector<float> input = tagged_tensor(shape, permuted_offset(shape, identity_perm(shape.size())));
  const layoutopt::testing::OmpThreads threads(1);
  for (const std::vector<int64_t>& perm : {std::vector<int64_t>{0, 2, 1, 3, 4}, {4, 0, 3, 1, 2}}) {
    const LayoutTransform transform =
        LayoutTransform::for_activation(shape, canonical_data_layout(shape.size()), transposed_layout(perm));
    threads.set(1);
    const std::vector<float> serial = transform.apply(input);
    threads.set(2);
    CHECK(transform.apply(input) == serial);
    CHECK(count_misplaced(shape, permuted_offset(shape, perm), serial) == 0);
  }
}
