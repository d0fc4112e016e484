#pragma once
// Lowering of the products between two activations (BatchMatMul) to their JIT kernel.

#include <optional>

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/kernel.h"
#include "layoutopt/kernels/network/network_schedule.h"

namespace layoutopt::kernels::network {

/// The kernel of a BatchMatMul node (input = a, weight = b) when the schedule keeps both
/// operands and the result in canonical (row-major) order; none otherwise, and the node
/// then runs on the reference implementation.
[[nodiscard]] std::optional<Kernel> batch_matmul_kernel(const graph::Graph& graph, graph::NodeId id,
                                                        const NodeSchedule& schedule);

}  // namespace layoutopt::kernels::network
