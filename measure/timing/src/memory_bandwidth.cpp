#include "layoutopt/timing/memory_bandwidth.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>

#include "layoutopt/timing/cache_info.h"
#include "layoutopt/timing/thread_scope.h"

namespace layoutopt::timing {

namespace {

constexpr size_t kMiB = size_t{1} << 20;
constexpr double kBytesPerGb = 1e9;
// Triad elements move two floats in and one out.
constexpr double kTriadBytesPerElement = 3.0 * sizeof(float);
// Every run streams at least this much (a small buffer is swept several times), so the fork
// of the thread team and the clock's resolution vanish beside the streaming.
constexpr size_t kMinBytesPerRun = 64 * kMiB;
// Triad scale: any value the compiler cannot fold away.
constexpr float kTriadScale = 1.0009765625f;

// Keeps the sums observable so the read loop cannot be optimised away.
std::atomic<uint64_t> g_sink{0};

/// Uninitialised storage, first touched by the threads that stream it (page placement on
/// multi-socket hosts follows the first write).
template <typename T>
std::unique_ptr<T[]> parallel_filled(size_t count, T value) {
  std::unique_ptr<T[]> data(new T[count]);
  const auto n = static_cast<int64_t>(count);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) data[static_cast<size_t>(i)] = value + static_cast<T>(i & 7);
  return data;
}

struct StreamRate {
  Timing timing;
  int team = 0;
  double fastest_gbps = 0;
  double median_gbps = 0;
};

StreamRate rate_of(const Timing& timing, int team, double bytes_per_run) {
  return {timing, team, bytes_per_run / (timing.ms.min * 1e-3) / kBytesPerGb,
          bytes_per_run / (timing.ms.median * 1e-3) / kBytesPerGb};
}

int passes_for(size_t bytes) { return static_cast<int>(std::max<size_t>(1, kMinBytesPerRun / std::max<size_t>(bytes, 1))); }

/// The slice [begin, end) of `count` items the calling OpenMP thread streams: contiguous and
/// equal, as the static schedule of the first touch placed them.
std::pair<int64_t, int64_t> own_slice(int64_t count) {
  const int64_t threads = omp_get_num_threads(), thread = omp_get_thread_num();
  return {count * thread / threads, count * (thread + 1) / threads};
}

// Integer adds vectorise without reassociating floats; raw pointers let the compiler keep the
// accumulators in registers.
uint64_t sum_words(const uint64_t* __restrict words, int64_t count) {
  uint64_t sum = 0;
  for (int64_t i = 0; i < count; ++i) sum += words[i];
  return sum;
}

void triad(float* __restrict a, const float* __restrict b, const float* __restrict c, int64_t count) {
  for (int64_t i = 0; i < count; ++i) a[i] = b[i] + kTriadScale * c[i];
}

/// Sum of every word, each thread over its own slice.
StreamRate time_read(const TimingPolicy& policy, size_t bytes) {
  const size_t words = bytes / sizeof(uint64_t);
  const std::unique_ptr<uint64_t[]> data = parallel_filled<uint64_t>(words, 1);
  const uint64_t* const start = data.get();
  const auto n = static_cast<int64_t>(words);
  const int passes = passes_for(bytes);
  int team = 0;
  const Timing timing = time_runs(policy, [&] {
    uint64_t sum = 0;
#pragma omp parallel reduction(+ : sum)
    {
#pragma omp single
      team = omp_get_num_threads();
      const std::pair<int64_t, int64_t> slice = own_slice(n);
      for (int pass = 0; pass < passes; ++pass) sum += sum_words(start + slice.first, slice.second - slice.first);
    }
    g_sink.fetch_add(sum, std::memory_order_relaxed);
  });
  return rate_of(timing, team, static_cast<double>(passes) * static_cast<double>(words * sizeof(uint64_t)));
}

/// a = b + s * c over three arrays sharing `bytes`, each thread over its own slice.
StreamRate time_triad(const TimingPolicy& policy, size_t bytes) {
  const size_t elements = bytes / (3 * sizeof(float));
  const std::unique_ptr<float[]> a = parallel_filled<float>(elements, 0.0f);
  const std::unique_ptr<float[]> b = parallel_filled<float>(elements, 1.0f);
  const std::unique_ptr<float[]> c = parallel_filled<float>(elements, 2.0f);
  const auto n = static_cast<int64_t>(elements);
  const int passes = passes_for(bytes);
  int team = 0;
  const Timing timing = time_runs(policy, [&] {
#pragma omp parallel
    {
#pragma omp single
      team = omp_get_num_threads();
      const std::pair<int64_t, int64_t> slice = own_slice(n);
      for (int pass = 0; pass < passes; ++pass)
        triad(a.get() + slice.first, b.get() + slice.first, c.get() + slice.first, slice.second - slice.first);
    }
  });
  g_sink.fetch_add(static_cast<uint64_t>(a[elements / 2]), std::memory_order_relaxed);
  return rate_of(timing, team, static_cast<double>(passes) * static_cast<double>(elements) * kTriadBytesPerElement);
}

}  // namespace

size_t bandwidth_buffer_bytes(int64_t llc_bytes) {
  constexpr size_t kUnknownCacheBytes = 256 * kMiB;
  return llc_bytes > 0 ? 4 * static_cast<size_t>(llc_bytes) : kUnknownCacheBytes;
}

TimingPolicy memory_bandwidth_policy(int threads) {
  TimingPolicy policy;
  policy.threads = threads;
  policy.warmup_runs = 3;
  policy.min_repeats = 10;
  policy.min_repeat_ms = 300;
  return policy;
}

MemoryBandwidth measure_memory_bandwidth(const TimingPolicy& policy, size_t buffer_bytes) {
  // The buffers are first touched on the team that streams them.
  const ThreadScope team(policy.threads);
  TimingPolicy streaming = policy;
  streaming.flush_cache = false;
  const size_t bytes = buffer_bytes > 0 ? buffer_bytes : bandwidth_buffer_bytes(last_level_cache_bytes(read_sysfs_caches()));
  const StreamRate read = time_read(streaming, bytes);
  const StreamRate triad = time_triad(streaming, bytes);
  return {read.fastest_gbps, read.median_gbps, triad.fastest_gbps, triad.median_gbps, read.team, bytes, read.timing};
}

}  // namespace layoutopt::timing
