#include "layoutopt/layout/weight_layouts.h"

#include <doctest/doctest.h>

#include <vector>

#include "reference_offsets.h"

using layoutopt::layout::ConvWeightShape;
using layoutopt::layout::Layout;
using layoutopt::layout::LayoutError;
using layoutopt::layout::LayoutTransform;
using namespace layoutopt::layout::testing;

namespace {

// Applies `transform` to tagged OIHW (or OI) weights, checks every element against
// `expected` and that the inverse transform restores the original.
void check_weights(const LayoutTransform& transform, const OffsetFn& canonical, const OffsetFn& expected) {
  const std::vector<int64_t>& shape = transform.logical_shape();
  const std::vector<float> original = tagged_tensor(shape, canonical);
  const std::vector<float> blocked = transform.apply(original);
  CHECK(count_misplaced(shape, expected, blocked) == 0);
  const LayoutTransform inverse(shape, transform.canonical_layout(), transform.dst_layout(), transform.src_layout());
  CHECK(inverse.apply(blocked) == original);
}

OffsetFn oihw_offset(const std::vector<int64_t>& shape) { return oihwio_offset(shape, 1, 1); }

}  // namespace

TEST_CASE("regular conv weights OIHW -> OIHW[x]i[y]o") {
  const ConvWeightShape shape{.out_channels = 32, .in_channels = 24, .kernel_h = 3, .kernel_w = 3};
  for (const auto& [ib, ob] : {std::pair<int64_t, int64_t>{8, 16}, {24, 32}, {1, 16}, {4, 8}}) {
    const LayoutTransform transform = layoutopt::layout::conv_weight_transform(shape, ib, ob);
    CHECK(transform.dst_layout() == Layout::oihwio(ib, ob));
    check_weights(transform, oihw_offset(transform.logical_shape()), oihwio_offset(transform.logical_shape(), ib, ob));
  }
  const LayoutTransform pointwise = layoutopt::layout::conv_weight_transform({64, 32, 1, 1, 1}, 16, 16);
  check_weights(pointwise, oihw_offset(pointwise.logical_shape()), oihwio_offset(pointwise.logical_shape(), 16, 16));
}

TEST_CASE("grouped conv weights block within each group") {
  // 4 groups of 8 output and 4 input channels: logical shape 32 x 4 x 3 x 3.
  const ConvWeightShape shape{.out_channels = 32, .in_channels = 16, .kernel_h = 3, .kernel_w = 3, .groups = 4};
  CHECK(shape.logical() == std::vector<int64_t>{32, 4, 3, 3});
  const LayoutTransform transform = layoutopt::layout::conv_weight_transform(shape, 4, 8);
  check_weights(transform, oihw_offset(shape.logical()), oihwio_offset(shape.logical(), 4, 8));
  // An output block of 16 would mix two groups; an input block of 8 exceeds a group's 4.
  CHECK_THROWS_WITH_AS(layoutopt::layout::conv_weight_transform(shape, 4, 16),
                       doctest::Contains("output block 16 does not divide the 8 output channels of each of 4 groups"),
                       LayoutError);
  CHECK_THROWS_WITH_AS(layoutopt::layout::conv_weight_transform(shape, 8, 8),
                       doctest::Contains("block 8 does not divide axis I of extent 4"), LayoutError);
}

TEST_CASE("depthwise weights block the output channels across groups") {
  const ConvWeightShape shape{.out_channels = 48, .in_channels = 48, .kernel_h = 3, .kernel_w = 3, .groups = 48};
  const LayoutTransform transform = layoutopt::layout::depthwise_weight_transform(shape, 16);
  CHECK(transform.dst_layout().str() == "OIHW1i16o");
  // Documented order [O/16][KH][KW][16].
  const OffsetFn expected = [](const std::vector<int64_t>& x) {
    return ((x[0] / 16 * 3 + x[2]) * 3 + x[3]) * 16 + x[0] % 16;
  };
  check_weights(transform, oihw_offset(shape.logical()), expected);
  const ConvWeightShape multiplier2{.out_channels = 32, .in_channels = 16, .kernel_h = 5, .kernel_w = 5, .groups = 16};
  check_weights(layoutopt::layout::depthwise_weight_transform(multiplier2, 8), oihw_offset(multiplier2.logical()),
                oihwio_offset(multiplier2.logical(), 1, 8));
  CHECK_THROWS_WITH_AS(layoutopt::layout::depthwise_weight_transform({32, 32, 3, 3, 16}, 16),
                       doctest::Contains("depthwise weights need one input channel per group, got 2"), LayoutError);
  CHECK_THROWS_WITH_AS(layoutopt::layout::depthwise_weight_transform({40, 40, 3, 3, 40}, 16),
                       doctest::Contains("block 16 does not divide axis O of extent 40"), LayoutError);
}

TEST_CASE("dense weights OI -> OI[x]i[y]o") {
  const LayoutTransform transform = layoutopt::layout::dense_weight_transform(32, 48, 16, 8);
  CHECK(transform.dst_layout().str() == "OI16i8o");
  const OffsetFn canonical = [](const std::vector<int64_t>& x) { return x[0] * 48 + x[1]; };
  const OffsetFn expected = [](const std::vector<int64_t>& x) {
    return ((x[0] / 8) * 3 + x[1] / 16) * 128 + (x[1] % 16) * 8 + x[0] % 8;
  };
  check_weights(transform, canonical, expected);
  CHECK_THROWS_WITH_AS(layoutopt::layout::dense_weight_transform(32, 48, 32, 8),
                       doctest::Contains("block 32 does not divide axis I of extent 48"), LayoutError);
  CHECK_THROWS_WITH_AS(layoutopt::layout::dense_weight_transform(0, 48, 16, 8),
                       doctest::Contains("output features must be positive"), LayoutError);
}

TEST_CASE("malformed conv weight shapes are rejected") {
  CHECK_THROWS_WITH_AS((void)ConvWeightShape({30, 16, 3, 3, 4}).logical(),
                       "conv weights: 4 groups do not divide 30 output and 16 input channels", LayoutError);
  CHECK_THROWS_WITH_AS((void)ConvWeightShape({32, 16, 0, 3, 1}).logical(),
                       doctest::Contains("kernel height must be positive"), LayoutError);
  CHECK_THROWS_AS(layoutopt::layout::conv_weight_transform({32, 16, 3, 3, 1}, 0, 16), LayoutError);
}
