#pragma once
// How much slower a plan's network ran than its steps ran when timed before: the test
// calibration uses to tell a host that slowed between rounds from a plan priced wrong.
// Why: a slow spell (docs/design/slow-spells.md) slows a whole run for seconds to minutes,
// and profiles taken inside it agree with each other, so only an earlier timing of the same
// steps shows it. A wrong price moves only the steps it priced; the steps whose candidate ran
// before are the yardstick, so only they are compared.

#include <map>
#include <optional>

#include "layoutopt/costs/repricing.h"
#include "layoutopt/graph/graph.h"

namespace layoutopt::costs {

/// One node of a timed plan: the candidate that ran, its in-network time, and that time over
/// the candidate's isolated price (its factor, repricing.h).
struct NodeTiming {
  CandidateId candidate;
  double factor = 0;
  double ms = 0;
};

/// Share of a timed plan's node time that must have run before for the comparison to speak
/// for the whole run: less, and a few steps' noise would decide it.
inline constexpr double kSlowdownMinOverlap = 0.5;

/// Over the nodes of `timed` whose candidate has a factor in `earlier`, the time they took
/// over what those factors price them at (1.3: the steps that ran before took 1.3x their
/// earlier time). Nullopt when those nodes hold less than kSlowdownMinOverlap of `timed`'s
/// node time.
[[nodiscard]] std::optional<double> network_slowdown(const std::map<graph::NodeId, NodeTiming>& timed,
                                                     const std::map<graph::NodeId, InNetworkNode>& earlier);

}  // namespace layoutopt::costs
