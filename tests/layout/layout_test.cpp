#include "layoutopt/layout/layout.h"

#include <doctest/doctest.h>

using layoutopt::layout::Layout;
using layoutopt::layout::LayoutError;

TEST_CASE("layout strings parse and print back unchanged") {
  for (const char* text : {"NCHW", "NHWC", "NCHW8c", "NCHW16c", "OIHW", "OIHW4i16o", "NC", "NC16c"})
    CHECK(Layout::parse(text).str() == text);
  CHECK(Layout::nchwc(32).str() == "NCHW32c");
  CHECK(Layout::oihwio(8, 16).str() == "OIHW8i16o");
}

TEST_CASE("the factories build what the strings spell, equal to the parsed layouts") {
  CHECK(Layout::channel_blocked(2, 16).str() == "NC16c");
  CHECK(Layout::channel_blocked(3, 8).str() == "NCW8c");
  CHECK(Layout::channel_blocked(4, 16) == Layout::parse("NCHW16c"));
  CHECK(Layout::channel_blocked(5, 8) == Layout::parse("NCDHW8c"));
  CHECK(Layout::channel_blocked(6, 4) == Layout::parse("NCTDHW4c"));
  for (const size_t rank : {size_t{2}, size_t{3}, size_t{4}, size_t{5}, size_t{6}}) {
    CAPTURE(rank);
    CHECK(layoutopt::layout::canonical_data_layout(rank).primal_axes().size() == rank);
    CHECK(Layout::channel_blocked(rank, 1) == layoutopt::layout::canonical_data_layout(rank));  // one spelling of plain
    CHECK(Layout::channel_blocked(rank, 0) == layoutopt::layout::canonical_data_layout(rank));
  }
  CHECK(Layout::nchwc(1) == Layout::parse("NCHW1c"));  // as kernels report a block of 1
  CHECK(Layout::oihwio(1, 16) == Layout::parse("OIHW1i16o"));
  CHECK(Layout::oi().split('I', 8).split('O', 16) == Layout::parse("OI8i16o"));
  CHECK(Layout::nc() == Layout::parse("NC"));
  CHECK_THROWS_AS((void)Layout::channel_blocked(7, 8), LayoutError);
  CHECK_THROWS_AS((void)Layout::channel_blocked(1, 8), LayoutError);
  CHECK_THROWS_AS((void)Layout::channel_blocked(4, -2), LayoutError);
  CHECK_THROWS_WITH_AS((void)Layout::nc().split('H', 4), doctest::Contains("no axis 'H'"), LayoutError);
  CHECK_THROWS_AS((void)Layout::nchw().split('C', 0), LayoutError);
}

TEST_CASE("blocked layouts report their blocks and primal axes") {
  const Layout blocked = Layout::parse("NCHW16c");
  CHECK(blocked.block_of('C') == 16);
  CHECK(blocked.block_of('H') == 1);
  CHECK(blocked.primal_axes() == "NCHW");
  CHECK(blocked.same_primal_axes(Layout::nhwc()));
  CHECK_FALSE(blocked.same_primal_axes(Layout::oihw()));
}

TEST_CASE("physical shapes follow the layout") {
  const std::vector<int64_t> logical{1, 64, 56, 28};
  CHECK(Layout::nchwc(16).physical_shape(logical, Layout::nchw()) == std::vector<int64_t>{1, 4, 56, 28, 16});
  CHECK(Layout::nhwc().physical_shape(logical, Layout::nchw()) == std::vector<int64_t>{1, 56, 28, 64});
  const std::vector<int64_t> weights{64, 32, 3, 3};
  CHECK(Layout::oihwio(8, 16).physical_shape(weights, Layout::oihw()) ==
        std::vector<int64_t>{4, 4, 3, 3, 8, 16});
}

TEST_CASE("malformed layout strings are rejected with the reason") {
  CHECK_THROWS_WITH_AS(Layout::parse(""), "invalid layout '': empty string", LayoutError);
  CHECK_THROWS_WITH_AS(Layout::parse("NCHWc"), doctest::Contains("needs a block size"), LayoutError);
  CHECK_THROWS_WITH_AS(Layout::parse("NCHW16"), doctest::Contains("trailing block size"), LayoutError);
  CHECK_THROWS_WITH_AS(Layout::parse("NCHC"), doctest::Contains("appears twice"), LayoutError);
  CHECK_THROWS_WITH_AS(Layout::parse("NCHW8k"), doctest::Contains("no primal axis 'K'"), LayoutError);
  CHECK_THROWS_WITH_AS(Layout::parse("NC-HW"), doctest::Contains("unexpected character '-'"), LayoutError);
  CHECK_THROWS_WITH_AS(Layout::parse("NCHW0c"), doctest::Contains("must be positive"), LayoutError);
}

TEST_CASE("blockings that do not divide the channels are rejected") {
  const std::vector<int64_t> logical{1, 3, 224, 224};
  CHECK_THROWS_WITH_AS(Layout::nchwc(16).check_fits(logical, Layout::nchw()),
                       doctest::Contains("block 16 does not divide axis C of extent 3"), LayoutError);
  CHECK_THROWS_AS(Layout::nchwc(16).check_fits(std::vector<int64_t>{1, 16}, Layout::nchw()), LayoutError);
}

TEST_CASE("a transpose's layout takes the canonical axes in the permutation's order") {
  using layoutopt::layout::transposed_layout;
  CHECK(transposed_layout(std::vector<int64_t>{0, 2, 3, 1}) == Layout::nhwc());
  CHECK(transposed_layout(std::vector<int64_t>{0, 1, 2, 3}) == Layout::nchw());
  CHECK(transposed_layout(std::vector<int64_t>{0, 2, 1}).str() == "NWC");
  CHECK(transposed_layout(std::vector<int64_t>{1, 0}).str() == "CN");
  CHECK_THROWS_WITH_AS(transposed_layout(std::vector<int64_t>{0, 1, 1, 3}),
                       "transpose permutation of rank 4 names axis 1 twice", LayoutError);
  CHECK_THROWS_WITH_AS(transposed_layout(std::vector<int64_t>{0, 4, 1, 2}),
                       "transpose permutation of rank 4 names axis 4 out of range", LayoutError);
  CHECK(transposed_layout(std::vector<int64_t>{2, 0, 3, 1, 4}).str() == "DNHCW");  // a qkv split's permute
  CHECK(transposed_layout(std::vector<int64_t>{0, 1, 3, 2, 4, 5}).str() == "NCDTHW");  // a window partition's
  CHECK_THROWS_AS(transposed_layout(std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6}), LayoutError);  // no rank-7 layout
}

TEST_CASE("rank-5 and rank-6 layouts keep their blocked channels and shapes") {
  const std::vector<int64_t> logical{2, 16, 3, 5, 7};
  const Layout canonical = layoutopt::layout::canonical_data_layout(5);
  CHECK(Layout::channel_blocked(5, 8).physical_shape(logical, canonical) == std::vector<int64_t>{2, 2, 3, 5, 7, 8});
  const Layout permuted = layoutopt::layout::transposed_layout(std::vector<int64_t>{0, 2, 1, 3, 4});
  CHECK(permuted.physical_shape(logical, canonical) == std::vector<int64_t>{2, 3, 16, 5, 7});
  CHECK(permuted.same_primal_axes(canonical));
  CHECK_FALSE(canonical.same_primal_axes(layoutopt::layout::canonical_data_layout(6)));
}
