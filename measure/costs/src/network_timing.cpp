#include "layoutopt/costs/network_timing.h"

#include <numeric>

#include "layoutopt/timing/random_fill.h"
#include "layoutopt/timing/statistics.h"

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
  std::vector<std::vector<double>> samples(network.steps().size());
  std::vector<double> run_ms;
  for (int r = 0; r < runs; ++r) {
    const std::vector<double> ms = network.execute_profiled();
    for (size_t s = 0; s < ms.size(); ++s) samples[s].push_back(ms[s]);
    run_ms.push_back(std::accumulate(ms.begin(), ms.end(), 0.0));
  }
  NetworkProfile profile;
  for (const std::vector<double>& step : samples) profile.step_ms.push_back(step.empty() ? 0.0 : timing::summarize(step).median);
  profile.run_ms = run_ms.empty() ? 0.0 : timing::summarize(run_ms).median;
  return profile;
}

timing::Timing time_network(kernels::CompiledNetwork& network, const graph::Graph& graph, const timing::TimingPolicy& policy,
                    uint64_t seed) {
  set_random_inputs(network, graph, seed);
  return timing::time_runs(policy, [&] { network.execute(); });
}

}  // namespace layoutopt::costs
