#pragma once
// The one timing harness: kernels, layout transforms and microbenchmarks are all timed with
// the same TimingPolicy, so their costs are comparable and can be added up in a cost model.
//
//   TimingPolicy policy;                 // defaults suit kernels of ~10 us .. 100 ms
//   policy.threads = 2;
//   Timing t = time_runs(policy, [&] { transform.run(src, dst); });
//   double ms = t.ms.median;
//
// Procedure: set the OpenMP thread count; run `warmup_runs` untimed calls (page faults,
// instruction caches, frequency ramp); then time single calls until at least `min_repeats`
// were timed AND their total reaches `min_repeat_ms` (stopping at `max_repeats`). With
// `flush_cache`, a buffer larger than the last-level cache is written before every call,
// outside the timed region. Inputs must hold real data: see fill_random.
//
// On an oversubscribed machine (more runnable processes than cores), libgomp's spinning
// workers make every multi-threaded run wait for a scheduler slice, which swamps a short
// operator. Run such measurements with OMP_WAIT_POLICY=passive (read at start-up).
// Evidence: docs/design/omp-wait-policy.md.

#include <cstddef>
#include <functional>

#include "layoutopt/timing/statistics.h"

namespace layoutopt::timing {

struct TimingPolicy {
  int warmup_runs = 2;
  int min_repeats = 5;
  double min_repeat_ms = 50.0;  ///< least total time of the timed runs
  int max_repeats = 100000;     ///< bound for bodies much shorter than the clock's resolution
  int threads = 0;              ///< OpenMP threads during all runs; 0 keeps the current setting
  bool flush_cache = false;     ///< cold caches before every run (untimed)
  size_t flush_bytes = 0;       ///< flush buffer size; 0 picks default_flush_bytes()
};

struct Timing {
  Summary ms;           ///< per-run wall-clock time in milliseconds
  int warmup_runs = 0;  ///< untimed calls made
  int repeats = 0;      ///< timed calls made (= ms.count)
  int threads = 0;      ///< OpenMP thread count in effect
  double total_ms = 0;  ///< sum of the timed runs
};

/// Milliseconds since any fixed point, read just before and just after each timed call.
/// Injectable so tests check the protocol on given times instead of the wall clock.
using Clock = std::function<double()>;

/// std::chrono::steady_clock in milliseconds: time_runs' clock unless told otherwise.
double steady_clock_ms();

/// Whether another timed run is due after `repeats` runs totalling `total_ms`: until
/// min_repeats were timed and their total reaches min_repeat_ms, never past max_repeats.
[[nodiscard]] bool needs_another_run(const TimingPolicy& policy, int repeats, double total_ms);

/// Times `body` under `policy`. Before every call (warm-up included), after the flush, runs
/// `prepare` untimed when given: it puts the operands where the caller's setting leaves them.
/// `clock` is read around each timed call (steady_clock_ms when empty).
/// Throws std::invalid_argument for an inconsistent policy (negative warm-up, min_repeats < 1,
/// max_repeats < min_repeats, negative min_repeat_ms).
Timing time_runs(const TimingPolicy& policy, const std::function<void()>& body,
                 const std::function<void()>& prepare = {}, const Clock& clock = {});

}  // namespace layoutopt::timing
