#include "layoutopt/layout/index_map.h"

#include <doctest/doctest.h>

#include <vector>

#include "reference_offsets.h"

using layoutopt::layout::IndexMap;
using layoutopt::layout::Layout;
using layoutopt::layout::LayoutError;
using namespace layoutopt::layout::testing;

namespace {

int64_t mismatches(const IndexMap& map, const std::vector<int64_t>& shape, const OffsetFn& expected) {
  int64_t wrong = 0;
  for_each_coordinate(shape, [&](const std::vector<int64_t>& x) {
    if (map.offset(x) != expected(x)) ++wrong;
  });
  return wrong;
}

}  // namespace

TEST_CASE("offsets follow the hand-written formulas") {
  const std::vector<int64_t> shape{2, 32, 3, 5};
  CHECK(mismatches(IndexMap(shape, Layout::nchw(), Layout::nchw()), shape, nchwc_offset(shape, 1)) == 0);
  CHECK(mismatches(IndexMap(shape, Layout::nchw(), Layout::nchwc(16)), shape, nchwc_offset(shape, 16)) == 0);
  CHECK(mismatches(IndexMap(shape, Layout::nchw(), Layout::nhwc()), shape, nhwc_offset(shape)) == 0);
  const std::vector<int64_t> weights{32, 16, 3, 3};
  CHECK(mismatches(IndexMap(weights, Layout::oihw(), Layout::oihwio(4, 8)), weights, oihwio_offset(weights, 4, 8)) ==
        0);
}

TEST_CASE("physical axes report extent, multiplier and stride") {
  const IndexMap map(std::vector<int64_t>{1, 32, 3, 5}, Layout::nchw(), Layout::nchwc(16));
  REQUIRE(map.physical_axes().size() == 5);
  const IndexMap::PhysicalAxis outer_c = map.physical_axes()[1];
  CHECK(outer_c.logical_axis == 1);
  CHECK(outer_c.extent == 2);
  CHECK(outer_c.multiplier == 16);
  CHECK(outer_c.stride == 3 * 5 * 16);
  const IndexMap::PhysicalAxis inner_c = map.physical_axes()[4];
  CHECK(inner_c.extent == 16);
  CHECK(inner_c.multiplier == 1);
  CHECK(inner_c.stride == 1);
  CHECK(map.size() == 32 * 15);
}

TEST_CASE("nested sub-axes compose: NCHW4c2c is NCHW8c in memory") {
  const std::vector<int64_t> shape{1, 16, 2, 2};
  const IndexMap nested(shape, Layout::nchw(), Layout::parse("NCHW4c2c"));
  CHECK(nested.same_offsets(IndexMap(shape, Layout::nchw(), Layout::nchwc(8))));
  CHECK_FALSE(nested.same_offsets(IndexMap(shape, Layout::nchw(), Layout::nchwc(4))));
}

TEST_CASE("bad coordinates and shapes are rejected") {
  const IndexMap map(std::vector<int64_t>{1, 16, 2, 2}, Layout::nchw(), Layout::nchwc(16));
  CHECK_THROWS_WITH_AS((void)map.offset(std::vector<int64_t>{0, 16, 0, 0}),
                       doctest::Contains("coordinate 16 out of range for axis 1 of extent 16"), LayoutError);
  CHECK_THROWS_AS((void)map.offset(std::vector<int64_t>{0, 0, 0}), LayoutError);
  CHECK_THROWS_WITH_AS(IndexMap(std::vector<int64_t>{1, 3, 2, 2}, Layout::nchw(), Layout::nchwc(16)),
                       doctest::Contains("block 16 does not divide axis C of extent 3"), LayoutError);
}
