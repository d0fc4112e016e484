// Which tasks' logged timings are stale: spot checks that drifted from their neighbours'.

#include "layoutopt/costs/drift_check.h"

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <stdexcept>
#include <vector>

using namespace layoutopt;
using costs::DriftSample;

namespace {

/// One spot check per task 0..count-1, each drifted `drift(task)`.
template <typename Drift>
std::vector<DriftSample> spot_checks(size_t count, Drift drift) {
  std::vector<DriftSample> samples;
  for (size_t task = 0; task < count; ++task) samples.push_back({task, drift(task), true});
  return samples;
}

/// The tasks drifted_tasks found.
std::set<size_t> found(const std::vector<DriftSample>& samples, double limit) {
  std::set<size_t> tasks;
  for (const auto& [task, reference] : costs::drifted_tasks(samples, limit)) tasks.insert(task);
  return tasks;
}

}  // namespace

TEST_CASE("a task that drifted among ones that held still is found, either way") {
  const auto samples = spot_checks(30, [](size_t task) { return task == 7 ? 1.42 : task == 20 ? 0.6 : 1.0; });
  CHECK(found(samples, 1.25) == std::set<size_t>{7, 20});
  // Within the limit, a drift is the host's noise.
  const auto noisy = spot_checks(30, [](size_t task) { return task % 2 == 0 ? 1.1 : 0.95; });
  CHECK(found(noisy, 1.25).empty());
}

TEST_CASE("a slow spell starting partway through a round makes no task stale") {
  // Tasks 0-9 were timed before the spell, 10-29 in it, at 1.63x: against the round's median
  // drift (1.63) the first ten would all look stale; against their neighbours none does, not
  // even the ones at the spell's edge.
  const auto samples = spot_checks(30, [](size_t task) { return task < 10 ? 1.0 : 1.63; });
  CHECK(found(samples, 1.25).empty());
  // A drifted task inside the spell still stands out, with the spell's drift as its
  // reference: fresh timings of it at 1.63x would find the spot check an outlier.
  auto with_stale = samples;
  with_stale[15].drift = 1.63 * 1.5;
  const auto drifted = costs::drifted_tasks(with_stale, 1.25);
  REQUIRE(drifted.size() == 1);
  CHECK(drifted.at(15) == doctest::Approx(1.63));
  CHECK(costs::drifted(1.63 * 1.5, drifted.at(15), 1.25));
  CHECK_FALSE(costs::drifted(1.63, drifted.at(15), 1.25));
}

TEST_CASE("only spot checks judge a task, with other timings as their neighbours; the median over its spot checks decides") {
  std::vector<DriftSample> samples = spot_checks(12, [](size_t) { return 1.0; });
  // A config timed for the first time is not a spot check: its drift says nothing of stale records.
  samples.push_back({40, 3.0, false});
  // Task 41's two spot checks: one odd, one not; the median of 1.0 and 2.0 is 1.5.
  samples.push_back({41, 2.0, true});
  samples.push_back({41, 1.0, true});
  CHECK(found(samples, 1.25) == std::set<size_t>{41});
  CHECK(found(samples, 1.6).empty());
  CHECK_THROWS_AS((void)costs::drifted_tasks(samples, 1.0), std::invalid_argument);
}
