#include "layoutopt/timing/timing.h"

#include <doctest/doctest.h>
#include <omp.h>

#include <chrono>
#include <stdexcept>
#include <thread>

using layoutopt::timing::time_runs;
using layoutopt::timing::Timing;
using layoutopt::timing::TimingPolicy;

// Only counts and the harness's own bookkeeping are asserted: wall-clock values on a shared
// machine are not reproducible.

TEST_CASE("warm-up runs are made and not timed; min_repeats is honoured") {
  TimingPolicy policy;
  policy.warmup_runs = 3;
  policy.min_repeats = 7;
  policy.min_repeat_ms = 0;
  int calls = 0;
  const Timing t = time_runs(policy, [&] { ++calls; });
  CHECK(calls == 3 + 7);
  CHECK(t.warmup_runs == 3);
  CHECK(t.repeats == 7);
  CHECK(t.ms.count == 7);
}

TEST_CASE("the preparation runs before every call, warm-up included, and is not timed") {
  // Counted, not clocked: the bodies take nanoseconds and the preparations 2 ms each. Timed,
  // the preparations would reach min_repeat_ms after at most 15 runs; untimed, the loop runs
  // to max_repeats (a loaded machine only adds preemption, which cannot make 40 empty runs
  // total 30 ms).
  TimingPolicy policy;
  policy.warmup_runs = 2;
  policy.min_repeats = 4;
  policy.min_repeat_ms = 30;
  policy.max_repeats = 40;
  int prepared = 0, calls = 0;
  bool prepared_first = true;
  const Timing t = time_runs(
      policy,
      [&] {
        prepared_first = prepared_first && prepared == calls + 1;
        ++calls;
      },
      [&] {
        ++prepared;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      });
  CHECK(t.repeats == 40);
  CHECK(prepared == 2 + 40);
  CHECK(calls == 2 + 40);
  CHECK(prepared_first);
}

TEST_CASE("runs repeat until min_repeat_ms of timed work") {
  TimingPolicy policy;
  policy.warmup_runs = 0;
  policy.min_repeats = 1;
  policy.min_repeat_ms = 20;
  int calls = 0;
  const Timing t = time_runs(policy, [&] {
    ++calls;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  });
  CHECK(t.total_ms >= 20.0);
  CHECK(t.repeats == calls);
  // A sleep never returns early, so ten 2 ms runs always suffice.
  CHECK(calls <= 10);
  CHECK(t.ms.min <= t.ms.median);
  CHECK(t.ms.median <= t.ms.max);
}

TEST_CASE("max_repeats bounds trivially short bodies") {
  TimingPolicy policy;
  policy.warmup_runs = 0;
  policy.min_repeats = 2;
  policy.min_repeat_ms = 1e9;
  policy.max_repeats = 50;
  int calls = 0;
  const Timing t = time_runs(policy, [&] { ++calls; });
  CHECK(calls == 50);
  CHECK(t.repeats == 50);
}

TEST_CASE("runs use the configured thread count, then restore it") {
  const int before = omp_get_max_threads();
  TimingPolicy policy;
  policy.threads = 3;
  policy.min_repeats = 2;
  policy.min_repeat_ms = 0;
  int team = 0;
  const Timing t = time_runs(policy, [&] {
#pragma omp parallel
#pragma omp single
    team = omp_get_num_threads();
  });
  CHECK(team == 3);
  CHECK(t.threads == 3);
  CHECK(omp_get_max_threads() == before);
}

TEST_CASE("cache flushing keeps the call counts") {
  TimingPolicy policy;
  policy.warmup_runs = 1;
  policy.min_repeats = 3;
  policy.min_repeat_ms = 0;
  policy.flush_cache = true;
  policy.flush_bytes = 1 << 20;
  int calls = 0;
  const Timing t = time_runs(policy, [&] { ++calls; });
  CHECK(calls == 4);
  CHECK(t.repeats == 3);
}

TEST_CASE("inconsistent policies are rejected") {
  TimingPolicy policy;
  policy.min_repeats = 0;
  CHECK_THROWS_WITH_AS(time_runs(policy, [] {}), doctest::Contains("min_repeats must be >= 1"), std::invalid_argument);
  policy.min_repeats = 10;
  policy.max_repeats = 5;
  CHECK_THROWS_WITH_AS(time_runs(policy, [] {}), doctest::Contains("max_repeats (5) is below min_repeats (10)"),
                       std::invalid_argument);
  policy.max_repeats = 100;
  policy.warmup_runs = -1;
  CHECK_THROWS_AS(time_runs(policy, [] {}), std::invalid_argument);
}
