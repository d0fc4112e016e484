#pragma once
// A graph compiled for a schedule, as data: the runtime::NetworkSpec with its arena laid
// out, the weight image it indexes, and what only this process has: the JIT-compiled code of
// every symbol the spec names and the code of its reference steps. CompiledNetwork
// materializes it; the ahead-of-time compiler writes it out.

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/network/compiled_network.h"
#include "layoutopt/kernels/network/network_schedule.h"
#include "layoutopt/runtime/network_spec.h"
#include "network/program.h"

namespace layoutopt::kernels::network {

struct BuiltNetwork {
  runtime::NetworkSpec spec;
  std::vector<float> weights;  ///< the image spec.constants index
  FunctionTable functions;
  runtime::ReferenceBodies reference;
  std::vector<StepKind> step_kinds;  ///< per spec.steps entry
  std::vector<std::optional<graph::NodeId>> step_nodes;  ///< per spec.steps entry: the node it runs
  /// What CompiledNetwork's summary reports, but for kernel counts and run-time figures.
  CompileSummary summary;
};

/// Throws KernelError naming the node when the schedule does not fit the graph, or when
/// `forks` (plan_forks of a network built from the same graph and schedule) do not fit its
/// steps. Every storage a fork's steps touch stays alive over the whole fork, so the
/// lanes' tensors never share memory.
[[nodiscard]] BuiltNetwork build_network(const graph::Graph& graph, const NetworkSchedule& schedule,
                                         std::span<const runtime::Fork> forks = {});


}  // namespace layoutopt::kernels::network
