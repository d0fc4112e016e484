// plan_reduction_stretches: how many input channels one straight-line stretch of a direct
// conv's reduction covers, and how often it fetches weights ahead inside it.

#include <doctest/doctest.h>

#include "conv/direct_conv_geometry.h"

namespace {

using layoutopt::kernels::conv::plan_reduction_stretches;
using layoutopt::kernels::conv::ReductionStretches;

int64_t unroll(int64_t channels, int64_t accumulators, int64_t kernel_h, int64_t kernel_w) {
  return plan_reduction_stretches(channels, accumulators, kernel_h, kernel_w).unroll;
}

}  // namespace

TEST_CASE("a kernel of one row reads each run of consecutive input channels in one stretch") {
  // AVX2's 12 accumulators over 16 channels (192 FMAs) and AVX-512's 28 (448): one stretch
  // per stored block, so each broadcast steps by one plane per block (the stride
  // prefetcher's case).
  CHECK(unroll(16, 12, 1, 1) == 16);
  CHECK(unroll(16, 28, 1, 1) == 16);
  CHECK(unroll(32, 12, 1, 1) == 32);
  // Weight prefetches stay one slot per stretch of at most 128 FMAs, not one burst per block.
  const ReductionStretches plan = plan_reduction_stretches(16, 12, 1, 1);
  CHECK(plan.prefetch_stride == 8);
  CHECK(plan.unroll % plan.prefetch_stride == 0);
}

TEST_CASE("long runs and kernels of several rows keep stretches of at most 128 FMAs") {
  CHECK(unroll(64, 12, 1, 1) == 8);   // 768 FMAs for the whole run
  CHECK(unroll(16, 12, 1, 7) == 8);   // 1x7: seven unrolled columns of 192
  CHECK(unroll(16, 12, 3, 3) == 8);   // a 3x3 steps by rows between planes anyway
  CHECK(unroll(16, 28, 3, 3) == 4);
  CHECK(unroll(6, 28, 3, 3) == 3);    // divisors of the run only
  for (int64_t accumulators : {4, 12, 28}) {
    const ReductionStretches plan = plan_reduction_stretches(16, accumulators, 3, 3);
    CHECK(plan.unroll == plan.prefetch_stride);
    CHECK(plan.unroll * accumulators <= 128);
  }
}

TEST_CASE("a weight-prefetch slot needs FMAs to hide among") {
  using layoutopt::kernels::conv::prefetch_slot_pays;
  CHECK_FALSE(prefetch_slot_pays(1, 28));  // one channel of a 2 x 7 x 32 tile
  CHECK_FALSE(prefetch_slot_pays(1, 14));
  CHECK(prefetch_slot_pays(2, 28));
  CHECK(prefetch_slot_pays(4, 28));        // what 16-channel steps of that tile stride by
  CHECK(prefetch_slot_pays(8, 12));
}
