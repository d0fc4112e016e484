#include "layoutopt/timing/timing.h"

#include <doctest/doctest.h>
#include <omp.h>

#include <stdexcept>
#include <vector>

using layoutopt::timing::needs_another_run;
using layoutopt::timing::time_runs;
using layoutopt::timing::Timing;
using layoutopt::timing::TimingPolicy;

// Only counts, the harness's own bookkeeping and times of a scripted clock are asserted:
// wall-clock values on a shared machine are not reproducible.

namespace {

/// A clock that moves only when a test says so.
struct FakeClock {
  double now_ms = 1000.0;
  void advance(double ms) { now_ms += ms; }
  [[nodiscard]] layoutopt::timing::Clock reader() {
    return [this] { return now_ms; };
  }
};

/// A policy with the given warm-up, least repeats and least total (and bound on repeats).
TimingPolicy policy_of(int warmup_runs, int min_repeats, double min_repeat_ms, int max_repeats = TimingPolicy{}.max_repeats) {
  TimingPolicy policy;
  policy.warmup_runs = warmup_runs;
  policy.min_repeats = min_repeats;
  policy.min_repeat_ms = min_repeat_ms;
  policy.max_repeats = max_repeats;
  return policy;
}

}  // namespace

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
  // On a scripted clock: each preparation takes 2 ms and each body none. Timed, the
  // preparations would reach min_repeat_ms after 15 runs; untimed, the loop runs to max_repeats.
  FakeClock clock;
  const TimingPolicy policy = policy_of(2, 4, 30, 40);
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
        clock.advance(2.0);
      },
      clock.reader());
  CHECK(t.repeats == 40);
  CHECK(t.total_ms == 0.0);
  CHECK(t.ms.max == 0.0);
  CHECK(prepared == 2 + 40);
  CHECK(calls == 2 + 40);
  CHECK(prepared_first);
}

TEST_CASE("runs repeat until min_repeat_ms of timed work; the statistics are the given runs'") {
  // On a scripted clock, a 3 ms warm-up (untimed), then runs of 1, 4, 1, 5, 9 ms: 11 ms after
  // four, so the fifth is due and brings the total to 20 ms.
  FakeClock clock;
  const std::vector<double> durations{3, 1, 4, 1, 5, 9, 2, 6};
  const TimingPolicy policy = policy_of(1, 1, 12);
  int calls = 0;
  const Timing t = time_runs(policy, [&] { clock.advance(durations[static_cast<size_t>(calls++)]); }, {}, clock.reader());
  CHECK(calls == 1 + 5);
  CHECK(t.repeats == 5);
  CHECK(t.ms.count == 5);
  CHECK(t.total_ms == 20.0);
  CHECK(t.ms.min == 1.0);
  CHECK(t.ms.max == 9.0);
  CHECK(t.ms.median == 4.0);
  CHECK(t.ms.mean == doctest::Approx(4.0));
}

TEST_CASE("min_repeats holds even when the first runs already exceed min_repeat_ms") {
  FakeClock clock;
  const TimingPolicy policy = policy_of(0, 3, 1);
  const Timing t = time_runs(policy, [&] { clock.advance(100.0); }, {}, clock.reader());
  CHECK(t.repeats == 3);
  CHECK(t.total_ms == 300.0);
  CHECK(t.ms.median == 100.0);
}

TEST_CASE("the stop decision: min_repeats and min_repeat_ms both, never past max_repeats") {
  TimingPolicy policy = policy_of(0, 5, 50, 10);
  CHECK(needs_another_run(policy, 0, 0.0));
  CHECK(needs_another_run(policy, 4, 1000.0));   // too few runs, however long
  CHECK(needs_another_run(policy, 5, 49.9));     // enough runs, too little time
  CHECK_FALSE(needs_another_run(policy, 5, 50.0));
  CHECK_FALSE(needs_another_run(policy, 10, 0.0));  // max_repeats bounds short bodies
  policy.max_repeats = 5;
  CHECK_FALSE(needs_another_run(policy, 5, 0.0));
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
