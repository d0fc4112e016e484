#pragma once
// drifted_tasks: which tasks' logged timings come from another state of the host, judged
// from a round of fresh timings of the configs a plan chose.
//
// A spot check is one fresh timing of a config whose logged timings were complete; its drift
// is that timing / the config's logged cost. A task drifted when its spot checks drifted
// from their neighbours' (the timings taken just before and after them) by more than a limit.
// Neighbours, not the round as a whole, are the reference because a slow spell of the host
// can start or end partway through a round and move every timing within it alike: judged
// against the round, the timings on the quiet side of a spell's edge would all look stale.
// A memory-bound layer whose bandwidth moved stands out against any neighbours. Evidence:
// docs/design/stale-records.md.

#include <cstddef>
#include <map>
#include <span>

namespace layoutopt::costs {

struct DriftSample {
  size_t task = 0;
  double drift = 1.0;       ///< a fresh timing / the logged cost of its config
  bool spot_check = false;  ///< of a config whose logged timings were complete
};

/// Timings on each side of a spot check whose median drift is its reference.
inline constexpr size_t kDriftNeighbours = 8;

/// Tasks whose spot checks among `samples` (one round's timings, in the order taken) drifted
/// from their references by more than `limit` (> 1) either way: the median over a task's
/// spot checks of (drift / the median drift of the samples within kDriftNeighbours of it)
/// is above `limit` or below 1 / `limit`. Each maps to its reference, the median over its
/// spot checks of their neighbours' median drift: how the host ran around them, against
/// which fresh timings of the task can confirm the drift or find the spot check an outlier.
[[nodiscard]] std::map<size_t, double> drifted_tasks(std::span<const DriftSample> samples, double limit);

/// Whether `drift` is more than `limit` away from `reference`, either way.
[[nodiscard]] bool drifted(double drift, double reference, double limit);

}  // namespace layoutopt::costs
