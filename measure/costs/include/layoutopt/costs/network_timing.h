#pragma once
// Timing a whole compiled network with the shared harness (timing.h): seeded random inputs,
// warm-up runs, then single runs until both a run count and a total time are reached;
// medians and spread come from the same statistics as every kernel and transform timing.

#include <cstdint>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/network/compiled_network.h"
#include "layoutopt/timing/timing.h"

namespace layoutopt::costs {

/// 3 warm-up runs, at least 10 timed runs and 1 s of timed runs, on `threads` threads.
[[nodiscard]] timing::TimingPolicy network_policy(int threads, double min_repeat_ms = 1000.0);

/// Sets random inputs (uniform in [-1, 1), from `seed`) of `graph`'s input shapes.
void set_random_inputs(kernels::CompiledNetwork& network, const graph::Graph& graph, uint64_t seed = 1);

/// Where a run's time goes, over `runs` runs of execute_profiled (on the inputs set last):
/// each step's share of the median run (timing/run_shares.h: its median, scaled so the
/// steps add up to the run), the median of the runs' step sums, and each step's median
/// waiting time (kernels::ProfiledRun::wait_ms; NaN where none was recorded).
struct NetworkProfile {
  std::vector<double> step_ms;  ///< in the order of network.steps()
  double run_ms = 0;
  std::vector<double> wait_ms;  ///< in the order of network.steps(); may be empty (no step recorded)
};
[[nodiscard]] NetworkProfile profile_network(kernels::CompiledNetwork& network, int runs);

/// Sets random inputs (set_random_inputs), then times network.execute() under `policy`.
[[nodiscard]] timing::Timing time_network(kernels::CompiledNetwork& network, const graph::Graph& graph,
                                  const timing::TimingPolicy& policy, uint64_t seed = 1);

}  // namespace layoutopt::costs
