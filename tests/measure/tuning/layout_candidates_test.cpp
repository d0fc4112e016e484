// What a tuned config costs the planner: re-timed configs the median of their later timings,
// configs timed once their timing scaled by the task's selection bias.

#include "layoutopt/tuning/layout_candidates.h"

#include <doctest/doctest.h>

#include "layoutopt/tuning/selection_bias.h"
#include "tuning_fixtures.h"

using namespace layoutopt;
using namespace layoutopt::testing;

namespace {

tuning::LayoutCandidate timing(int64_t index, double seconds, const kernels::OpLayouts& layouts) {
  return {.index = index, .seconds = seconds, .layouts = layouts};
}

}  // namespace

TEST_CASE("a re-timed config costs the median of its later timings, not its lucky tuning timing") {
  const kernels::OpLayouts layouts = small_conv_task().op.layouts(0);
  tuning::LayoutCandidates candidates(1);
  candidates.add(timing(0, 1.0, layouts));  // a lucky tuning timing
  candidates.add(timing(1, 2.0, layouts));
  REQUIRE(candidates.all().size() == 1);
  CHECK(candidates.all()[0].index == 0);
  candidates.add(timing(0, 5.0, layouts));
  candidates.add(timing(0, 4.0, layouts));
  const auto kept = candidates.all();
  REQUIRE(kept.size() == 1);
  CHECK(kept[0].index == 1);  // 0 costs 4.5 now: the tuning timing 1.0 no longer counts
  CHECK(kept[0].seconds == doctest::Approx(2.0));
  CHECK(kept[0].timings == 1);

  tuning::LayoutCandidates all(3);
  all.add(timing(0, 1.0, layouts));
  all.add(timing(0, 5.0, layouts));
  all.add(timing(0, 4.0, layouts));
  REQUIRE(all.all().size() == 1);
  CHECK(all.all()[0].seconds == doctest::Approx(4.5));
  CHECK(all.all()[0].timings == 3);
  REQUIRE(all.retiming_ratios().size() == 1);
  CHECK(all.retiming_ratios()[0] == doctest::Approx(4.5));
}

TEST_CASE("a config costs the median of its latest later timings: fresh timings replace old ones") {
  const kernels::OpLayouts layouts = small_conv_task().op.layouts(0);
  tuning::LayoutCandidates candidates(1);
  candidates.add(timing(0, 1.0, layouts));  // tuning timing
  for (double old : {1.1, 1.2, 1.1}) candidates.add(timing(0, old, layouts));
  CHECK(candidates.estimated_seconds(0).value() == doctest::Approx(1.1));
  // The host moved: one fresh timing among the latest three does not move the cost...
  candidates.add(timing(0, 2.0, layouts));
  CHECK(candidates.estimated_seconds(0).value() == doctest::Approx(1.2));
  // ...three do, whatever the older ones said.
  candidates.add(timing(0, 2.2, layouts));
  candidates.add(timing(0, 2.1, layouts));
  CHECK(candidates.estimated_seconds(0).value() == doctest::Approx(2.1));
  REQUIRE(candidates.retiming_ratios().size() == 1);
  CHECK(candidates.retiming_ratios()[0] == doctest::Approx(2.1));
  static_assert(tuning::kLatestTimings == 3);
}

TEST_CASE("configs timed once are scaled by the selection bias, re-timed ones are not") {
  const kernels::OpLayouts layouts = small_conv_task().op.layouts(0);
  tuning::LayoutCandidates candidates(2);
  candidates.add(timing(0, 1.00, layouts));
  candidates.add(timing(0, 1.10, layouts));  // re-timed: 1.10, 10% above its tuning timing
  candidates.add(timing(1, 1.05, layouts));  // timed once, and 5% faster than 0's re-timing
  REQUIRE(candidates.retiming_ratios().size() == 1);
  CHECK(candidates.retiming_ratios()[0] == doctest::Approx(1.10));

  // Taken at face value, the once-timed rival wins on its one timing.
  auto face_value = candidates.all();
  REQUIRE(face_value.size() == 2);
  CHECK(face_value[0].index == 1);
  // Scaled by the 10% the re-timed config lost, it is expected at 1.155 and loses.
  auto scaled = candidates.all({.once_timed_factor = 1.10});
  REQUIRE(scaled.size() == 2);
  CHECK(scaled[0].index == 0);
  CHECK(scaled[0].seconds == doctest::Approx(1.10));
  CHECK(scaled[1].seconds == doctest::Approx(1.155));
}

TEST_CASE("any config is estimated by the rule that ranks them, whatever its rank") {
  const kernels::OpLayouts layouts = small_conv_task().op.layouts(0);
  tuning::LayoutCandidates candidates(1);  // keeps one config per layout pair
  candidates.add(timing(0, 1.0, layouts));
  candidates.add(timing(1, 2.0, layouts));
  candidates.add(timing(1, 3.0, layouts));
  candidates.add(timing(1, 5.0, layouts));
  REQUIRE(candidates.all({.once_timed_factor = 1.5}).size() == 1);
  CHECK(candidates.all({.once_timed_factor = 1.5})[0].index == 0);
  // Config 0 timed once: its timing times the factor; config 1, out-ranked and not kept by
  // all(), still has its estimate: the median of its later timings.
  CHECK(candidates.estimated_seconds(0, {.once_timed_factor = 1.5}).value() == doctest::Approx(1.5));
  REQUIRE(candidates.estimated_seconds(1, {.once_timed_factor = 1.5}).has_value());
  CHECK(*candidates.estimated_seconds(1, {.once_timed_factor = 1.5}) == doctest::Approx(4.0));
  CHECK_FALSE(candidates.estimated_seconds(7, {.once_timed_factor = 1.5}).has_value());
}

TEST_CASE("a task's own retiming ratios set its factor once it has enough, else all tasks' pooled") {
  const std::vector<std::vector<double>> ratios{
      {1.10, 1.20, 1.30},  // enough of its own: median 1.20
      {0.90},              // too few: the pooled median
      {},                  // nothing re-timed: the pooled median
  };
  const std::vector<double> factors = tuning::once_timed_factors(ratios);
  REQUIRE(factors.size() == 3);
  CHECK(factors[0] == doctest::Approx(1.20));
  CHECK(factors[1] == doctest::Approx(1.15));  // median of 0.90, 1.10, 1.20, 1.30
  CHECK(factors[2] == doctest::Approx(1.15));
  CHECK(tuning::once_timed_factors(ratios, 1)[1] == doctest::Approx(0.90));
  // Nothing re-timed anywhere: timings are taken as they are.
  CHECK(tuning::once_timed_factors({{}, {}}) == std::vector<double>{1.0, 1.0});
}

TEST_CASE("a stale task's configs cost their drift times their timings, except the ones timed since") {
  const kernels::OpLayouts layouts = small_conv_task().op.layouts(0);
  tuning::LayoutCandidates candidates(2);
  for (double old : {1.0, 1.0, 1.0}) candidates.add(timing(0, old, layouts));
  candidates.add(timing(1, 1.2, layouts));
  for (double fresh : {1.9, 2.0, 2.1}) candidates.add(timing(0, fresh, layouts));  // timed since the drift
  const tuning::CandidatePricing pricing{.once_timed_factor = 1.1, .stale_factor = 2.0, .fresh = {0}};
  CHECK(candidates.estimated_seconds(0, pricing).value() == doctest::Approx(2.0));
  CHECK(candidates.estimated_seconds(1, pricing).value() == doctest::Approx(1.2 * 1.1 * 2.0));
  // Unscaled, the stale rival would undercut the config that was timed afresh.
  CHECK(candidates.all({.once_timed_factor = 1.1}).front().index == 1);
  CHECK(candidates.all(pricing).front().index == 0);
}
