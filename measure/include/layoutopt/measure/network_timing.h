#pragma once
// Timing a whole compiled network with the shared harness (timing.h): seeded random inputs,
// warm-up runs, then single runs until both a run count and a total time are reached;
// medians and spread come from the same statistics as every kernel and transform timing.

#include <cstdint>

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/network/compiled_network.h"
#include "layoutopt/measure/timing.h"

namespace layoutopt::measure {

/// 3 warm-up runs, at least 10 timed runs and 1 s of timed runs, on `threads` threads.
[[nodiscard]] TimingPolicy network_policy(int threads, double min_repeat_ms = 1000.0);

/// Sets random inputs (uniform in [-1, 1), from `seed`) of `graph`'s input shapes, then times
/// network.execute() under `policy`.
[[nodiscard]] Timing time_network(kernels::CompiledNetwork& network, const graph::Graph& graph,
                                  const TimingPolicy& policy, uint64_t seed = 1);

}  // namespace layoutopt::measure
