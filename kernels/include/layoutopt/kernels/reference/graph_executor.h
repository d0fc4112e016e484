#pragma once
// Runs a whole graph with the reference operators, in canonical layouts: the ground truth
// every compiled network is compared against.

#include <span>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/reference/host_tensor.h"

namespace layoutopt::kernels::reference {

/// `inputs` are given in the order of graph.inputs(); the result follows graph.outputs().
/// Throws KernelError when an input's shape differs from the graph's.
[[nodiscard]] std::vector<HostTensor> run_graph(const graph::Graph& graph, const std::vector<HostTensor>& inputs);

/// Evaluates one node on canonical tensors: `inputs` are all its inputs (activations and
/// parameters) in input order. Compiled networks use it for the rare operators without a
/// blocked kernel (transpose, constant pad, clip with other bounds, general broadcasts,
/// resize, LRN, transposed convolution, ...).
/// Throws KernelError when the input count differs from the node's.
[[nodiscard]] HostTensor run_node(const graph::Graph& graph, graph::NodeId id, std::span<const HostTensor* const> inputs);

}  // namespace layoutopt::kernels::reference
