#include "layoutopt/measure/network_timing.h"

#include "layoutopt/measure/random_fill.h"

namespace layoutopt::measure {

TimingPolicy network_policy(int threads, double min_repeat_ms) {
  TimingPolicy policy;
  policy.warmup_runs = 3;
  policy.min_repeats = 10;
  policy.min_repeat_ms = min_repeat_ms;
  policy.threads = threads;
  return policy;
}

Timing time_network(kernels::CompiledNetwork& network, const graph::Graph& graph, const TimingPolicy& policy,
                    uint64_t seed) {
  std::vector<kernels::reference::HostTensor> inputs;
  for (graph::ValueId input : graph.inputs()) {
    inputs.emplace_back(graph.value(input).type.shape);
    fill_random(inputs.back().data, seed + inputs.size());
  }
  network.set_inputs(inputs);
  return time_runs(policy, [&] { network.execute(); });
}

}  // namespace layoutopt::measure
