#include "layoutopt/timing/peak_flops.h"

#include <doctest/doctest.h>

using layoutopt::timing::measure_peak_flops;
using layoutopt::timing::PeakFlops;
using layoutopt::timing::TimingPolicy;

TEST_CASE("the peak-FLOPS probe runs on the configured threads and reports a rate") {
  TimingPolicy quick;
  quick.warmup_runs = 1;
  quick.min_repeats = 3;
  quick.min_repeat_ms = 0;
  quick.threads = 1;
  const PeakFlops peak = measure_peak_flops(quick);
  CHECK(peak.threads == 1);
  CHECK(peak.timing.repeats == 3);
  CHECK(peak.gflops > 0);
  CHECK(peak.fma_and_add_gflops > 0);
  CHECK_FALSE(peak.isa.empty());
  CHECK(peak.chains * peak.lanes >= 8);
}
