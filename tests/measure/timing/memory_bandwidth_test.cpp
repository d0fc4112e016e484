// The bandwidth probe streams buffers past the caches and reports a positive, finite rate.
// How fast it streams is a benchmark's question (`layoutopt cpu`), not a unit test's: a test
// beside other tests on two vCPUs shares the caches and the memory bus with them.

#include "layoutopt/timing/memory_bandwidth.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace layoutopt::timing;

namespace {

TimingPolicy quick_policy() {
  TimingPolicy quick;
  quick.warmup_runs = 2;
  quick.min_repeats = 5;
  quick.min_repeat_ms = 0;
  quick.threads = 1;
  return quick;
}

}  // namespace

TEST_CASE("the streamed buffer is 4x the last-level cache, or 256 MiB when the cache is unknown") {
  CHECK(bandwidth_buffer_bytes(32 << 20) == size_t{128} << 20);
  CHECK(bandwidth_buffer_bytes(0) == size_t{256} << 20);
  CHECK(bandwidth_buffer_bytes(-1) == size_t{256} << 20);
}

TEST_CASE("the bandwidth probe reports finite positive rates on the configured threads") {
  const MemoryBandwidth memory = measure_memory_bandwidth(quick_policy(), size_t{64} << 20);
  CHECK(memory.threads == 1);
  CHECK(memory.read_timing.repeats >= 5);
  CHECK(memory.buffer_bytes == size_t{64} << 20);
  CHECK(std::isfinite(memory.read_gbps));
  CHECK(memory.read_gbps > 0);
  CHECK(memory.read_median_gbps <= memory.read_gbps);
  CHECK(std::isfinite(memory.triad_gbps));
  CHECK(memory.triad_gbps > 0);
}
