// The bandwidth probe streams buffers past the caches: a rate that is positive and finite,
// and a buffer that fits in L2 streams faster than one four times the last-level cache.

#include "layoutopt/timing/memory_bandwidth.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace layoutopt::timing;

namespace {

// Under AddressSanitizer every load is checked, and the sanitized build is not vectorized
// (-O1): the probe then measures the instrumentation, which runs as slowly in cache as past it.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kInstrumentedLoads = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kInstrumentedLoads = true;
#else
constexpr bool kInstrumentedLoads = false;
#endif
#else
constexpr bool kInstrumentedLoads = false;
#endif

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

TEST_CASE("a buffer that fits in L2 streams faster than one past the last-level cache") {
  // 128 KiB fits every current L2; the big one is what `layoutopt cpu` streams.
  const MemoryBandwidth cached = measure_memory_bandwidth(quick_policy(), size_t{128} << 10);
  const MemoryBandwidth streamed = measure_memory_bandwidth(quick_policy());
  CAPTURE(cached.read_gbps);
  CAPTURE(streamed.read_gbps);
  CHECK(cached.read_gbps > 0);
  if (kInstrumentedLoads) {
    MESSAGE("loads are instrumented (sanitized build): the cache is not measurable here");
    return;
  }
  CHECK(cached.read_gbps > 1.5 * streamed.read_gbps);
}
