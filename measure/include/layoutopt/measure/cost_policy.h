#pragma once
// The timing policy behind every cost the graph solver adds up: kernel measurements during
// tuning and layout-transform timings use this one policy, so a node cost and an edge cost
// mean the same thing (median of warm runs at a fixed thread count).

#include "layoutopt/measure/timing.h"

namespace layoutopt::measure {

/// Warm caches (layer-by-layer inference keeps activations warm), 2 warm-up runs, at least
/// 5 timed runs and `min_repeat_ms` of timed runs, on `threads` OpenMP threads (0 = default).
[[nodiscard]] TimingPolicy cost_policy(int threads, double min_repeat_ms = 20.0);

}  // namespace layoutopt::measure
