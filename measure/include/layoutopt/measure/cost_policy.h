#pragma once
// The timing policy behind every cost the graph solver adds up: kernel measurements during
// tuning and layout-transform timings use this one policy, so a node cost and an edge cost
// mean the same thing (median of warm runs at a fixed thread count).
//
// Preemption guard: on an oversubscribed machine an OpenMP region whose thread is
// descheduled waits at the barrier for a scheduler time slice; when that hits most runs,
// the median is a time slice (~5-10 ms), not the operator. A timing whose median exceeds
// twice its fastest run is such a case: it is repeated (at most 3 timings in all) and the
// one with the lowest median is kept.

#include <functional>

#include "layoutopt/measure/timing.h"

namespace layoutopt::measure {

/// Warm caches (layer-by-layer inference keeps activations warm), 2 warm-up runs, at least
/// 5 timed runs and `min_repeat_ms` of timed runs, on `threads` OpenMP threads (0 = default).
[[nodiscard]] TimingPolicy cost_policy(int threads, double min_repeat_ms = 20.0);

/// Times `body` with time_runs under `policy`, with the preemption guard above.
[[nodiscard]] Timing time_cost(const TimingPolicy& policy, const std::function<void()>& body);

}  // namespace layoutopt::measure
