#pragma once
// Builds the Program of a graph and a schedule: slots for every tensor in every layout some
// step needs, the transforms between them (one per tensor and layout, before its first
// reader), node steps from node_lowering, and the storage sharing of views and in-place steps.

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/network/network_schedule.h"
#include "network/program.h"

namespace layoutopt::kernels::network {

/// Throws KernelError naming the node when the schedule does not fit the graph.
[[nodiscard]] Program build_program(const graph::Graph& graph, const NetworkSchedule& schedule);

/// Per storage, the first and last step touching it; graph inputs and outputs span the whole
/// run, so repeated runs find their inputs intact and their outputs complete.
struct StorageLifetime {
  int first = 0;
  int last = 0;
};
[[nodiscard]] std::vector<StorageLifetime> storage_lifetimes(const Program& program);

}  // namespace layoutopt::kernels::network
