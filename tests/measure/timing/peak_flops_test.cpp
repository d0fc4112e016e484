#include "layoutopt/timing/peak_flops.h"

#include <doctest/doctest.h>

#include <utility>

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

TEST_CASE("of two peak probes the faster is kept whole, whichever came first") {
  PeakFlops slow;
  slow.gflops = 230;
  slow.median_gflops = 220;
  slow.threads = 2;
  PeakFlops fast = slow;
  fast.gflops = 460;
  fast.median_gflops = 440;
  for (const auto& [first, second] : {std::pair{slow, fast}, std::pair{fast, slow}}) {
    const PeakFlops kept = layoutopt::timing::faster_peak(first, second);
    CHECK(kept.gflops == 460);
    CHECK(kept.median_gflops == 440);
  }
}

TEST_CASE("of two peak probes on teams of different sizes the later is kept") {
  PeakFlops one_thread;
  one_thread.gflops = 240;
  one_thread.threads = 1;
  PeakFlops two_threads;
  two_threads.gflops = 230;
  two_threads.threads = 2;
  CHECK(layoutopt::timing::faster_peak(one_thread, two_threads).threads == 2);
  CHECK(layoutopt::timing::faster_peak(two_threads, one_thread).threads == 1);
}
