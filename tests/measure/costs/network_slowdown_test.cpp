// The test that tells a host that slowed between calibration rounds from a plan priced wrong:
// only the steps whose candidate ran before are compared, weighted by their time.

#include "layoutopt/costs/network_slowdown.h"

#include <doctest/doctest.h>

#include "layoutopt/layout/layout.h"

using namespace layoutopt;
using layout::Layout;

namespace {

costs::CandidateId tuned(int64_t config) {
  return costs::CandidateId{planning::TunedKernel{.task = "conv2d_NCHWc.x86", .family = "conv2d", .config_index = config},
                            {Layout::nchwc(16)}, Layout::nchwc(16)};
}

/// A node that took `ms` at `factor` times its isolated price.
costs::NodeTiming timing(int64_t config, double factor, double ms) { return {tuned(config), factor, ms}; }

}  // namespace

TEST_CASE("a whole network slower than its steps' earlier timings shows as their time ratio") {
  // Two nodes that ran before at factors 1.0 and 1.2, now at 2.0 and 2.4: both took 2x.
  const std::map<graph::NodeId, costs::InNetworkNode> earlier{{0, {.ran = {{tuned(1), 1.0}}}},
                                                              {1, {.ran = {{tuned(2), 1.2}}}}};
  const std::map<graph::NodeId, costs::NodeTiming> now{{0, timing(1, 2.0, 4.0)}, {1, timing(2, 2.4, 6.0)}};
  REQUIRE(costs::network_slowdown(now, earlier).has_value());
  CHECK(*costs::network_slowdown(now, earlier) == doctest::Approx(2.0));
  // Timed as fast as before: no slowdown.
  const std::map<graph::NodeId, costs::NodeTiming> same{{0, timing(1, 1.0, 2.0)}, {1, timing(2, 1.2, 3.0)}};
  CHECK(*costs::network_slowdown(same, earlier) == doctest::Approx(1.0));
}

TEST_CASE("the slowdown weighs each step by its time, so one small step's noise does not decide it") {
  const std::map<graph::NodeId, costs::InNetworkNode> earlier{{0, {.ran = {{tuned(1), 1.0}}}},
                                                              {1, {.ran = {{tuned(2), 1.0}}}}};
  // A 9 ms step as before and a 1 ms step at 3x: (9 + 1) / (9 + 1/3).
  const std::map<graph::NodeId, costs::NodeTiming> now{{0, timing(1, 1.0, 9.0)}, {1, timing(2, 3.0, 1.0)}};
  CHECK(*costs::network_slowdown(now, earlier) == doctest::Approx(10.0 / (9.0 + 1.0 / 3.0)));
}

TEST_CASE("only candidates that ran before are compared, and too little overlap says nothing") {
  const std::map<graph::NodeId, costs::InNetworkNode> earlier{{0, {.ran = {{tuned(1), 1.0}}}},
                                                              {1, {.ran = {{tuned(2), 1.0}}, .latest = 1.0}}};
  // Node 1 now runs another candidate (its `latest` factor is no timing of it), node 2 never
  // ran: only node 0 is compared, and it holds 6 of 10 ms.
  const std::map<graph::NodeId, costs::NodeTiming> mostly{
      {0, timing(1, 1.5, 6.0)}, {1, timing(3, 5.0, 2.0)}, {2, timing(4, 5.0, 2.0)}};
  CHECK(*costs::network_slowdown(mostly, earlier) == doctest::Approx(1.5));
  // Node 0 holds 4 of 10 ms: below half, the run is not judged.
  const std::map<graph::NodeId, costs::NodeTiming> little{
      {0, timing(1, 1.5, 4.0)}, {1, timing(3, 5.0, 3.0)}, {2, timing(4, 5.0, 3.0)}};
  CHECK_FALSE(costs::network_slowdown(little, earlier).has_value());
  CHECK_FALSE(costs::network_slowdown(mostly, {}).has_value());
  CHECK_FALSE(costs::network_slowdown({}, earlier).has_value());
}
