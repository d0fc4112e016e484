// accumulator_register_lanes: which chunks of a register tile compute in a whole vector.
// The conv2d and depthwise suites check the kernels built on it against the reference.

#include <doctest/doctest.h>

#include "conv/accumulator_lanes.h"
#include "kernels/vector_units.h"

using layoutopt::kernels::conv::accumulator_register_lanes;
using layoutopt::kernels::testing::kAvx2;
using layoutopt::kernels::testing::kFullWidth;
using layoutopt::kernels::testing::kSplitWidth;

TEST_CASE("a chunk of a narrower vector type computes in a whole vector where that costs no FMA rate") {
  CHECK(accumulator_register_lanes(16, kFullWidth) == 16);
  CHECK(accumulator_register_lanes(8, kFullWidth) == 16);
  CHECK(accumulator_register_lanes(4, kFullWidth) == 16);
  CHECK(accumulator_register_lanes(2, kFullWidth) == 16);
  CHECK(accumulator_register_lanes(1, kFullWidth) == 16);
  CHECK(accumulator_register_lanes(8, kAvx2) == 8);
  CHECK(accumulator_register_lanes(4, kAvx2) == 8);
}

TEST_CASE("chunks LLVM widens anyway, and hosts that run half vectors at the full rate, keep their own width") {
  // 12 or 6 lanes are no register type of their own: LLVM computes them in the whole
  // vector already, and zero-filling their last lanes costs inserts on every weight load.
  CHECK(accumulator_register_lanes(12, kFullWidth) == 12);
  CHECK(accumulator_register_lanes(6, kFullWidth) == 6);
  // Zen 4 runs an 8-lane FMA in half a 512-bit one's time: widening would double its cost.
  CHECK(accumulator_register_lanes(8, kSplitWidth) == 8);
  CHECK(accumulator_register_lanes(4, kSplitWidth) == 4);
}
