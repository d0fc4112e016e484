// accumulator_register_lanes: which chunks of a register tile compute in a whole vector.
// The conv2d and depthwise suites check the kernels built on it against the reference.

#include <doctest/doctest.h>

#include "conv/accumulator_lanes.h"

namespace {

using namespace layoutopt::kernels;

HostInfo host(int lanes, bool half_vectors_full_rate) {
  HostInfo info;
  info.vector_lanes = lanes;
  info.vector_registers = lanes == 16 ? 32 : 16;
  info.half_vectors_full_rate = half_vectors_full_rate;
  return info;
}

}  // namespace

TEST_CASE("a chunk of a narrower vector type computes in a whole vector where that costs no FMA rate") {
  const HostInfo avx512 = host(16, false);
  CHECK(conv::accumulator_register_lanes(16, avx512) == 16);
  CHECK(conv::accumulator_register_lanes(8, avx512) == 16);
  CHECK(conv::accumulator_register_lanes(4, avx512) == 16);
  CHECK(conv::accumulator_register_lanes(2, avx512) == 16);
  CHECK(conv::accumulator_register_lanes(1, avx512) == 16);
  const HostInfo avx2 = host(8, false);
  CHECK(conv::accumulator_register_lanes(8, avx2) == 8);
  CHECK(conv::accumulator_register_lanes(4, avx2) == 8);
}

TEST_CASE("chunks LLVM widens anyway, and hosts that run half vectors at the full rate, keep their own width") {
  // 12 or 6 lanes are no register type of their own: LLVM computes them in the whole
  // vector already, and zero-filling their last lanes costs inserts on every weight load.
  const HostInfo avx512 = host(16, false);
  CHECK(conv::accumulator_register_lanes(12, avx512) == 12);
  CHECK(conv::accumulator_register_lanes(6, avx512) == 6);
  // Zen 4 runs an 8-lane FMA in half a 512-bit one's time: widening would double its cost.
  const HostInfo zen4 = host(16, true);
  CHECK(conv::accumulator_register_lanes(8, zen4) == 8);
  CHECK(conv::accumulator_register_lanes(4, zen4) == 4);
}
