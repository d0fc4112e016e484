#include "layoutopt/costs/network_timing.h"

#include "layoutopt/timing/random_fill.h"
#include "layoutopt/timing/run_shares.h"

namespace layoutopt::costs {

timing::TimingPolicy network_policy(int threads, double min_repeat_ms) {
  timing::TimingPolicy policy;
  policy.warmup_runs = 3;
  policy.min_repeats = 10;
  policy.min_repeat_ms = min_repeat_ms;
  policy.threads = threads;
  return policy;
}

void set_random_inputs(kernels::CompiledNetwork& network, const graph::Graph& graph, uint64_t seed) {
  std::vector<kernels::reference::HostTensor> inputs;
  for (graph::ValueId input : graph.inputs()) {
    inputs.emplace_back(graph.value(input).type.shape);
    timing::fill_random(inputs.back().data, seed + inputs.size());
  }
  network.set_inputs(inputs);
}

NetworkProfile profile_network(kernels::CompiledNetwork& network, int runs) {
  std::vector<std::vector<double>> step_ms_by_run, wait_ms_by_run;
  for (int r = 0; r < runs; ++r) {
    kernels::ProfiledRun run = network.execute_profiled();
    step_ms_by_run.push_back(std::move(run.step_ms));
    wait_ms_by_run.push_back(std::move(run.wait_ms));
  }
  if (step_ms_by_run.empty()) return {std::vector<double>(network.steps().size(), 0.0), 0.0, {}};
  timing::RunShares shares = timing::run_shares(step_ms_by_run);
  return {std::move(shares.step_ms), shares.run_ms, timing::step_medians(wait_ms_by_run, network.steps().size())};
}

timing::Timing time_network(kernels::CompiledNetwork& network, const graph::Graph& graph, const timing::TimingPolicy& policy,
                    uint64_t seed) {
  set_random_inputs(network, graph, seed);
  return timing::time_runs(policy, [&] { network.execute(); });
}

}  // namespace layoutopt::costs
