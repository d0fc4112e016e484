#pragma once
// Sustained main-memory bandwidth of this machine: the second ceiling of the roofline beside
// the FMA peak (peak_flops.h). STREAM-like: every OpenMP thread streams its own slice of
// buffers far larger than the last-level cache, once reading only (a sum) and once reading two
// arrays and writing a third (a triad, a = b + s * c), so no byte comes from a cache.

#include <cstddef>
#include <cstdint>

#include "layoutopt/timing/timing.h"

namespace layoutopt::timing {

struct MemoryBandwidth {
  /// Read-only sum, fastest run: streaming can only be slowed by interference (other
  /// processes, preemption), so the fastest run is the machine's capability. The roofline
  /// prices bytes at this figure, the larger of the two, so no step beats its floor.
  double read_gbps = 0;
  double read_median_gbps = 0;  ///< from the median run, for judging the noise
  /// Triad, fastest run, counting 12 bytes per element (two reads, one write; the write's
  /// read-for-ownership is not counted, as STREAM does not).
  double triad_gbps = 0;
  double triad_median_gbps = 0;
  int threads = 0;            ///< threads that streamed
  size_t buffer_bytes = 0;    ///< bytes the read streams per run (the triad's three arrays together)
  Timing read_timing;
};

/// Bytes to stream so no cache holds them: 4x the last-level cache (`llc_bytes`), and 256 MiB
/// when the cache is unknown (llc_bytes <= 0), the size no current CPU's caches reach.
[[nodiscard]] size_t bandwidth_buffer_bytes(int64_t llc_bytes);

/// Warm-up (page faults, frequency), >= 10 runs and >= 300 ms, on `threads` OpenMP threads
/// (0: the current setting).
[[nodiscard]] TimingPolicy memory_bandwidth_policy(int threads = 0);

/// Streams `buffer_bytes` (0: bandwidth_buffer_bytes of this CPU's last-level cache) under
/// `policy` (its thread count applies; flushing is pointless for a buffer larger than the
/// caches and is ignored). A buffer smaller than the caches measures cache bandwidth instead.
[[nodiscard]] MemoryBandwidth measure_memory_bandwidth(const TimingPolicy& policy = memory_bandwidth_policy(),
                                                       size_t buffer_bytes = 0);

}  // namespace layoutopt::timing
