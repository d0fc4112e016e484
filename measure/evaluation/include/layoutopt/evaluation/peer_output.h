#pragma once
// What a compiled network computes on the benchmark peers' input, so that a side-by-side run
// can check it against ONNX Runtime and PyTorch (bench/compare_peers.py), not only time it.

#include <cstdint>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/network/compiled_network.h"

namespace layoutopt::evaluation {

/// The input bench/peers/ort_bench.js and torch_bench.py feed a model: `count` values of a
/// 32-bit linear congruential generator from `seed` (multiplier 1664525, increment
/// 1013904223), its top 24 bits scaled to [-1, 1).
[[nodiscard]] std::vector<float> peer_input(int64_t count, uint32_t seed);

/// The first `count` values of the network's first output on peer_input(seed) for its one
/// input (fewer when the output is smaller). Throws kernels::KernelError for a network with
/// several inputs, which the peers do not run either.
[[nodiscard]] std::vector<float> peer_output_head(kernels::CompiledNetwork& network, const graph::Graph& graph,
                                                  uint32_t seed = 0, size_t count = 8);

}  // namespace layoutopt::evaluation
