#include "layoutopt/layout/transform.h"

#include <doctest/doctest.h>
#include <omp.h>

#include <string>
#include <vector>

#include "reference_offsets.h"
#include "support/omp_threads.h"

using layoutopt::layout::Layout;
using layoutopt::layout::LayoutError;
using layoutopt::layout::LayoutTransform;
using layoutopt::layout::TransformPath;
using namespace layoutopt::layout::testing;

namespace {

struct Side {
  Layout layout;
  OffsetFn offset;
};

// A layout of an activation tensor together with its hand-written offset function.
Side blocked(const std::vector<int64_t>& shape, int64_t block) {
  return {block == 1 ? Layout::nchw() : Layout::nchwc(block), nchwc_offset(shape, block)};
}
Side nhwc(const std::vector<int64_t>& shape) { return {Layout::nhwc(), nhwc_offset(shape)}; }

// Checks src -> dst against the reference offsets and dst -> src back to the original
// bytes; returns the path the forward transform took.
TransformPath check_round_trip(const std::vector<int64_t>& shape, const Side& src, const Side& dst) {
  INFO(src.layout.str(), " -> ", dst.layout.str(), " for N,C,H,W = ", shape[0], ",", shape[1], ",", shape[2], ",",
       shape[3]);
  const std::vector<float> original = tagged_tensor(shape, src.offset);
  const LayoutTransform forward = LayoutTransform::for_activation(shape, src.layout, dst.layout);
  const std::vector<float> moved = forward.apply(original);
  CHECK(count_misplaced(shape, dst.offset, moved) == 0);
  const LayoutTransform backward = LayoutTransform::for_activation(shape, dst.layout, src.layout);
  CHECK(backward.apply(moved) == original);
  return forward.path();
}

}  // namespace

TEST_CASE("NCHW <-> NCHW[x]c is a transpose and matches the reference offsets") {
  for (const std::vector<int64_t>& shape :
       {std::vector<int64_t>{1, 64, 7, 7}, {2, 48, 17, 19}, {1, 32, 56, 56}, {2, 24, 5, 3}, {3, 16, 1, 1}})
    for (const int64_t block : {4, 8, 16, 24, 32, 48})
      if (shape[1] % block == 0) {
        // Without spatial extent a channel block is already contiguous in NCHW.
        const TransformPath expected = shape[2] * shape[3] == 1 ? TransformPath::identity : TransformPath::transpose;
        CHECK(check_round_trip(shape, blocked(shape, 1), blocked(shape, block)) == expected);
      }
}

TEST_CASE("NCHW[x]c <-> NCHW[y]c copies runs of gcd(x, y) channels") {
  const std::vector<int64_t> shape{2, 48, 9, 11};
  for (const auto& [from, to] : {std::pair<int64_t, int64_t>{8, 16}, {16, 8}, {16, 48}, {48, 8}, {12, 16}, {6, 8}})
    CHECK(check_round_trip(shape, blocked(shape, from), blocked(shape, to)) == TransformPath::copy_runs);
  const std::vector<int64_t> channels24{2, 24, 5, 7};
  CHECK(check_round_trip(channels24, blocked(channels24, 8), blocked(channels24, 12)) == TransformPath::copy_runs);
  CHECK(check_round_trip(channels24, blocked(channels24, 12), blocked(channels24, 24)) == TransformPath::copy_runs);
}

TEST_CASE("NHWC <-> NCHW and NHWC <-> NCHW[x]c") {
  for (const std::vector<int64_t>& shape : {std::vector<int64_t>{2, 24, 5, 3}, {1, 64, 13, 13}, {1, 2048, 7, 7}}) {
    CHECK(check_round_trip(shape, nhwc(shape), blocked(shape, 1)) == TransformPath::transpose);
    CHECK(check_round_trip(shape, nhwc(shape), blocked(shape, 8)) == TransformPath::copy_runs);
  }
}

TEST_CASE("the identity and physically identical layouts copy") {
  const std::vector<int64_t> shape{2, 32, 3, 5};
  CHECK(check_round_trip(shape, blocked(shape, 16), blocked(shape, 16)) == TransformPath::identity);
  // NCHW4c2c nests a 2-block inside a 4-block: the same memory order as NCHW8c.
  CHECK(check_round_trip(shape, {Layout::parse("NCHW4c2c"), nchwc_offset(shape, 8)}, blocked(shape, 8)) ==
        TransformPath::identity);
}

TEST_CASE("same_memory_order tells reinterpretations from copies") {
  using layoutopt::layout::same_memory_order;
  CHECK(same_memory_order({1, 64, 56, 56}, Layout::nchwc(16), Layout::nchwc(16)));
  CHECK(same_memory_order({1, 64, 56, 56}, Layout::nchw(), Layout::parse("NCHW1c")));
  CHECK(same_memory_order({1, 64, 1, 1}, Layout::nchw(), Layout::nchwc(16)));  // a 1x1 map: blocks move nothing
  CHECK_FALSE(same_memory_order({1, 64, 56, 56}, Layout::nchw(), Layout::nchwc(16)));
  CHECK_FALSE(same_memory_order({1, 64, 2, 1}, Layout::nchwc(8), Layout::nchwc(16)));
}

TEST_CASE("2-D NC <-> NC16c is a copy and a batch block is a permutation of digits") {
  const std::vector<int64_t> nc{3, 32};
  const LayoutTransform to_blocked = LayoutTransform::for_activation(nc, Layout::parse("NC"), Layout::parse("NC16c"));
  // Without spatial axes a channel block is already contiguous: nothing moves.
  CHECK(to_blocked.path() == TransformPath::identity);
  const std::vector<float> original = tagged_tensor(nc, [](const std::vector<int64_t>& x) { return x[0] * 32 + x[1]; });
  CHECK(to_blocked.apply(original) == original);

  // N16n blocks the batch: element (n, c) of a 32 x 8 tensor lands at (n/16)*128 + c*16 + n%16.
  const std::vector<int64_t> batch{32, 8};
  const LayoutTransform batch_blocked =
      LayoutTransform::for_activation(batch, Layout::parse("NC"), Layout::parse("NC16n"));
  CHECK(batch_blocked.path() == TransformPath::transpose);
  const std::vector<float> moved =
      batch_blocked.apply(tagged_tensor(batch, [](const std::vector<int64_t>& x) { return x[0] * 8 + x[1]; }));
  CHECK(count_misplaced(
            batch, [](const std::vector<int64_t>& x) { return (x[0] / 16) * 128 + x[1] * 16 + x[0] % 16; }, moved) ==
        0);
}

TEST_CASE("layouts outside the channel-blocked family permute digits or gather, and stay exact") {
  const std::vector<int64_t> shape{2, 16, 5, 3};
  // NWHC swaps the spatial axes and NHW8cC interleaves channels with stride C/8: both store
  // the digits of NCHW16c in another order. Blocks 3 and 4 share no run of channels and do
  // not nest: only the gather serves them.
  const Side nwhc{Layout::parse("NWHC"),
                  [&](const std::vector<int64_t>& x) { return ((x[0] * 3 + x[3]) * 5 + x[2]) * 16 + x[1]; }};
  const Side interleaved{Layout::parse("NHW8cC"), [&](const std::vector<int64_t>& x) {
                           return (((x[0] * 5 + x[2]) * 3 + x[3]) * 8 + x[1] % 8) * 2 + x[1] / 8;
                         }};
  CHECK(check_round_trip(shape, blocked(shape, 1), nwhc) == TransformPath::transpose);
  CHECK(check_round_trip(shape, blocked(shape, 16), interleaved) == TransformPath::transpose);
  const std::vector<int64_t> twelve{1, 12, 3, 3};
  CHECK(check_round_trip(twelve, blocked(twelve, 3), blocked(twelve, 4)) == TransformPath::gather);
}

TEST_CASE("results do not depend on the thread count") {
  const std::vector<int64_t> shape{1, 96, 23, 29};
  const std::vector<float> input = tagged_tensor(shape, nchwc_offset(shape, 1));
  const layoutopt::testing::OmpThreads threads(1);
  for (const auto& [from, to] : {std::pair<int64_t, int64_t>{1, 16}, {16, 1}, {8, 32}}) {
    const LayoutTransform transform =
        LayoutTransform::for_activation(shape, blocked(shape, from).layout, blocked(shape, to).layout);
    threads.set(1);
    const std::vector<float> serial = transform.apply(input);
    threads.set(2);
    CHECK(transform.apply(input) == serial);
  }
}

TEST_CASE("bytes moved counts one read and one write of every element") {
  const LayoutTransform transform = LayoutTransform::for_activation({1, 64, 56, 56}, Layout::nchw(), Layout::nchwc(16));
  CHECK(transform.elements() == 64 * 56 * 56);
  CHECK(transform.bytes_moved() == 2 * 4 * 64 * 56 * 56);
}

TEST_CASE("shapes that do not fit a layout are rejected with the reason") {
  CHECK_THROWS_WITH_AS(LayoutTransform::for_activation({1, 3, 224, 224}, Layout::nchw(), Layout::nchwc(16)),
                       "transform NCHW -> NCHW16c of shape 1x3x224x224 (NCHW): layout NCHW16c: block 16 does not "
                       "divide axis C of extent 3",
                       LayoutError);
  CHECK_THROWS_WITH_AS(LayoutTransform::for_activation({1, 24, 8, 8}, Layout::nchwc(16), Layout::nchw()),
                       doctest::Contains("block 16 does not divide axis C of extent 24"), LayoutError);
  CHECK_THROWS_WITH_AS(LayoutTransform::for_activation({1, 16, 8, 8}, Layout::nchw(), Layout::oihw()),
                       doctest::Contains("does not have the axes of NCHW"), LayoutError);
  CHECK_THROWS_WITH_AS(LayoutTransform::for_activation({1, 16, 0, 8}, Layout::nchw(), Layout::nhwc()),
                       doctest::Contains("has an empty axis"), LayoutError);
  CHECK_THROWS_AS(LayoutTransform::for_activation({1, 16, 8, 8, 8}, Layout::nchw(), Layout::nhwc()), LayoutError);

  const LayoutTransform transform = LayoutTransform::for_activation({1, 16, 2, 2}, Layout::nchw(), Layout::nhwc());
  std::vector<float> src(64), dst(63);
  CHECK_THROWS_WITH_AS(transform.run(src, dst), doctest::Contains("needs buffers of 64 floats, got 64 and 63"),
                       LayoutError);
}

TEST_CASE("path names are printable") {
  CHECK(layoutopt::layout::to_string(TransformPath::copy_runs) == "copy_runs");
  CHECK(layoutopt::layout::to_string(TransformPath::gather) == "gather");
}

TEST_CASE("a transform into transposed_layout writes the transposed tensor in canonical order") {
  // [N, C, H, W] = [2, 16, 3, 5] from NCHW8c to the layout of perm (0, 2, 3, 1): the result
  // must be the [N, H, W, C] tensor, checked by index loops.
  const std::vector<int64_t> shape{2, 16, 3, 5};
  const std::vector<int64_t> perm{0, 2, 3, 1};
  std::vector<float> plain(static_cast<size_t>(2 * 16 * 3 * 5));
  for (size_t i = 0; i < plain.size(); ++i) plain[i] = static_cast<float>(i);
  const std::vector<float> blocked = LayoutTransform::for_activation(shape, Layout::nchw(), Layout::nchwc(8)).apply(plain);
  const std::vector<float> moved =
      LayoutTransform::for_activation(shape, Layout::nchwc(8), layoutopt::layout::transposed_layout(perm)).apply(blocked);
  size_t misplaced = 0;
  for (int64_t n = 0; n < 2; ++n)
    for (int64_t h = 0; h < 3; ++h)
      for (int64_t w = 0; w < 5; ++w)
        for (int64_t c = 0; c < 16; ++c) {
          const size_t out = static_cast<size_t>(((n * 3 + h) * 5 + w) * 16 + c);
          const size_t in = static_cast<size_t>(((n * 16 + c) * 3 + h) * 5 + w);
          misplaced += moved[out] == plain[in] ? 0 : 1;
        }
  CHECK(misplaced == 0);
  // Rank 3, (0, 2, 1): [N, C, W] -> [N, W, C].
  const std::vector<int64_t> shape3{1, 4, 6};
  std::vector<float> plain3(24);
  for (size_t i = 0; i < plain3.size(); ++i) plain3[i] = static_cast<float>(i);
  const std::vector<float> moved3 = LayoutTransform::for_activation(shape3, Layout::parse("NCW"),
                                                                    layoutopt::layout::transposed_layout(std::vector<int64_t>{0, 2, 1}))
                                        .apply(plain3);
  for (int64_t c = 0; c < 4; ++c)
    for (int64_t w = 0; w < 6; ++w) CHECK(moved3[static_cast<size_t>(w * 4 + c)] == plain3[static_cast<size_t>(c * 6 + w)]);
}

TEST_CASE("rank-5 and rank-6 transforms into transposed_layout write the transposed tensor") {
  // A window partition's permute (0, 1, 3, 2, 4, 5) of [N, H/w, w, W/w, w, C] = [2, 2, 3, 2, 3, 4],
  // checked by index loops against the row-major offsets of input and output.
  const std::vector<int64_t> shape6{2, 2, 3, 2, 3, 4};
  std::vector<float> plain6(static_cast<size_t>(2 * 2 * 3 * 2 * 3 * 4));
  for (size_t i = 0; i < plain6.size(); ++i) plain6[i] = static_cast<float>(i);
  const std::vector<float> moved6 =
      LayoutTransform::for_activation(shape6, layoutopt::layout::canonical_data_layout(6),
                                      layoutopt::layout::transposed_layout(std::vector<int64_t>{0, 1, 3, 2, 4, 5}))
          .apply(plain6);
  size_t misplaced = 0;
  for (int64_t n = 0; n < 2; ++n)
    for (int64_t hb = 0; hb < 2; ++hb)
      for (int64_t hw = 0; hw < 3; ++hw)
        for (int64_t wb = 0; wb < 2; ++wb)
          for (int64_t ww = 0; ww < 3; ++ww)
            for (int64_t c = 0; c < 4; ++c) {
              const auto in = static_cast<size_t>(((((n * 2 + hb) * 3 + hw) * 2 + wb) * 3 + ww) * 4 + c);
              const auto out = static_cast<size_t>(((((n * 2 + hb) * 2 + wb) * 3 + hw) * 3 + ww) * 4 + c);
              misplaced += moved6[out] == plain6[in] ? 0 : 1;
            }
  CHECK(misplaced == 0);
  // A qkv split's permute (2, 0, 3, 1, 4) of [N, T, 3, heads, d] = [2, 5, 3, 2, 4], from channel blocks of 2.
  const std::vector<int64_t> shape5{2, 5, 3, 2, 4};
  std::vector<float> plain5(static_cast<size_t>(2 * 5 * 3 * 2 * 4));
  for (size_t i = 0; i < plain5.size(); ++i) plain5[i] = static_cast<float>(i);
  const Layout canonical5 = layoutopt::layout::canonical_data_layout(5);
  const std::vector<float> blocked5 =
      LayoutTransform::for_activation(shape5, canonical5, Layout::channel_blocked(5, 5)).apply(plain5);
  const std::vector<float> moved5 =
      LayoutTransform::for_activation(shape5, Layout::channel_blocked(5, 5),
                                      layoutopt::layout::transposed_layout(std::vector<int64_t>{2, 0, 3, 1, 4}))
          .apply(blocked5);
  misplaced = 0;
  for (int64_t n = 0; n < 2; ++n)
    for (int64_t t = 0; t < 5; ++t)
      for (int64_t k = 0; k < 3; ++k)
        for (int64_t h = 0; h < 2; ++h)
          for (int64_t d = 0; d < 4; ++d) {
            const auto in = static_cast<size_t>((((n * 5 + t) * 3 + k) * 2 + h) * 4 + d);
            const auto out = static_cast<size_t>((((k * 2 + n) * 2 + h) * 5 + t) * 4 + d);
            misplaced += moved5[out] == plain5[in] ? 0 : 1;
          }
  CHECK(misplaced == 0);
}

TEST_CASE("a transform run by the calling team writes what one with a team of its own writes") {
  // Every strategy: transpose, copy_runs, the generic gather (NHWC), the identity copy; on a
  // team of 2 and of 3 threads (shares that differ in size), each thread calling run().
  const std::vector<int64_t> shape{2, 24, 5, 7};
  const std::vector<std::pair<Side, Side>> pairs{{blocked(shape, 1), blocked(shape, 8)},
                                                 {blocked(shape, 8), blocked(shape, 12)},
                                                 {nhwc(shape), blocked(shape, 4)},
                                                 {blocked(shape, 8), blocked(shape, 8)}};
  for (const auto& pair : pairs)
    for (const int threads : {2, 3}) {
      const Side& src = pair.first;  // named, not bound: clang 14 cannot capture bindings in INFO
      const Side& dst = pair.second;
      INFO(src.layout.str(), " -> ", dst.layout.str(), " on ", threads, " threads");
      const LayoutTransform transform = LayoutTransform::for_activation(shape, src.layout, dst.layout);
      const std::vector<float> original = tagged_tensor(shape, src.offset);
      std::vector<float> own(original.size(), -1.0f), calling(original.size(), -1.0f);
      transform.run(original.data(), own.data());
#pragma omp parallel num_threads(threads)
      transform.run(original.data(), calling.data(), layoutopt::layout::TransformTeam::calling);
      CHECK(calling == own);
      CHECK(count_misplaced(shape, dst.offset, calling) == 0);
    }
}
