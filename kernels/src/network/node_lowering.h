#pragma once
// Lowering one graph node to the step that runs it, for the layouts and knobs its schedule
// gives: which kernel, with which constants (re-laid weights, folded batch norm), reading
// and writing which slots. The program builder decides where tensors live; this decides
// what runs on them.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/network/network_schedule.h"
#include "network/program.h"

namespace layoutopt::kernels::network {

struct NodeOperands {
  std::vector<SlotId> reads;  ///< per activation input, in the scheduled layouts
  SlotId write = -1;          ///< the output in the scheduled layout
};

struct LoweredNode {
  std::string detail;
  std::optional<runtime::StepAction> action;  ///< none for a view: the output is the first input's memory
  int in_place_operand = -1;  ///< see Step::in_place_operand
  int64_t constant_bytes = 0;  ///< constants kept outside the weight image (reference fallbacks)
  double compile_ms = 0;       ///< JIT time of the node's kernels
  std::vector<int64_t> slice_offsets;  ///< see Step::slice_offsets
  StepBody reference_body;             ///< the code of a ReferenceStep action
  int64_t view_offset = 0;  ///< a view's first float, in floats past its input's (a batch-1 channel slice)
};

/// Throws KernelError naming the node when the schedule does not fit it. Constants the
/// node's kernels read go into `weights`; the functions its kernels call into `functions`.
[[nodiscard]] LoweredNode lower_node(const graph::Graph& graph, graph::NodeId id, const NodeSchedule& schedule,
                                     const NodeOperands& operands, WeightImage& weights, FunctionTable& functions);

/// Compiles the kernels of the tuned nodes (convs and dense layers, a network's long
/// compiles) on up to `threads` threads into the kernel cache, so that lowering, which goes
/// node by node, finds them compiled. Nodes whose schedule does not fit are left to
/// lower_node, which reports them.
void compile_tuned_kernels(const graph::Graph& graph, const NetworkSchedule& schedule, int threads);

}  // namespace layoutopt::kernels::network
