#include "layoutopt/evaluation/peer_output.h"

#include <algorithm>

#include "layoutopt/kernels/error.h"

namespace layoutopt::evaluation {

std::vector<float> peer_input(int64_t count, uint32_t seed) {
  std::vector<float> values(static_cast<size_t>(count));
  uint32_t state = seed;
  for (float& value : values) {
    state = state * 1664525U + 1013904223U;  // wraps modulo 2^32, as Math.imul and >>> 0 do
    value = static_cast<float>(state >> 8) / 16777216.0F * 2.0F - 1.0F;
  }
  return values;
}

std::vector<float> peer_output_head(kernels::CompiledNetwork& network, const graph::Graph& graph, uint32_t seed,
                                    size_t count) {
  if (graph.inputs().size() != 1)
    throw kernels::KernelError("the benchmark peers feed one input; graph '" + graph.name() + "' has " +
                               std::to_string(graph.inputs().size()));
  kernels::reference::HostTensor input(graph.value(graph.inputs().front()).type.shape);
  input.data = peer_input(static_cast<int64_t>(input.data.size()), seed);
  const std::vector<kernels::reference::HostTensor> outputs = network.run({input});
  const std::vector<float>& first = outputs.front().data;
  return {first.begin(), first.begin() + static_cast<std::ptrdiff_t>(std::min(count, first.size()))};
}

}  // namespace layoutopt::evaluation
