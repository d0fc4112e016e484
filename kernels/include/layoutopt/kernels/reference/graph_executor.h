#pragma once
// Runs a whole graph with the reference operators, in canonical layouts: the ground truth
// every compiled network is compared against.

#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/reference/host_tensor.h"

namespace layoutopt::kernels::reference {

/// `inputs` are given in the order of graph.inputs(); the result follows graph.outputs().
/// Throws KernelError when an input's shape differs from the graph's.
[[nodiscard]] std::vector<HostTensor> run_graph(const graph::Graph& graph, const std::vector<HostTensor>& inputs);

}  // namespace layoutopt::kernels::reference
