#pragma once
// Which stretches of a compiled network run side by side (kernels::Fork), from the network's
// own step times: each step profiled with the whole team and with one thread, on the
// inputs set last. Measured rather than priced: how well a step splits over threads depends
// on its size and on what the step before left in which core's cache, which no isolated
// timing sees (docs/design/side-by-side.md).

#include <utility>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/timing/timing.h"

#include "layoutopt/kernels/network/compiled_network.h"
#include "layoutopt/kernels/network/forks.h"

namespace layoutopt::costs {

/// Profiled runs per thread count behind a network's forks (as many as `bench --profile`).
inline constexpr int kSideBySideProfiledRuns = 20;

/// Step times of `network` (compiled from `graph`) on random inputs with `threads` threads
/// and with one, over `runs` profiled runs each (profile_network), and the forks
/// kernels::plan_forks makes of them for `threads` lanes. None for fewer than two threads.
/// Compile the network again with them (CompiledNetwork::compile's forks) to run them.
[[nodiscard]] std::vector<kernels::Fork> plan_side_by_side(kernels::CompiledNetwork& network, const graph::Graph& graph,
                                                           int threads, int runs);

/// The same network without forks and with them, timed in alternating rounds (time_network
/// under `policy`, its min_repeat_ms per round and side), so a slow spell of the host falls
/// on both: per round each side's median run.
struct SideBySideRounds {
  std::vector<double> team_ms, forked_ms;
  /// Medians over the rounds of each side's median, and of the rounds' forked / team ratios.
  [[nodiscard]] double team_median() const;
  [[nodiscard]] double forked_median() const;
  [[nodiscard]] double ratio_median() const;
  [[nodiscard]] std::pair<double, double> ratio_range() const;
};
[[nodiscard]] SideBySideRounds time_side_by_side(kernels::CompiledNetwork& team, kernels::CompiledNetwork& forked,
                                                 const graph::Graph& graph, const timing::TimingPolicy& policy,
                                                 int rounds);

}  // namespace layoutopt::costs
