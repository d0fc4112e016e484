#pragma once
// Lowering one graph node to the step that runs it, for the layouts and knobs its schedule
// gives: which kernel, with which constants (re-laid weights, folded batch norm), reading
// and writing which slots. The program builder decides where tensors live; this decides
// what runs on them.

#include <memory>
#include <string>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/network/network_schedule.h"
#include "network/constant_pool.h"
#include "network/program.h"

namespace layoutopt::kernels::network {

struct NodeOperands {
  std::vector<SlotId> reads;  ///< per activation input, in the scheduled layouts
  SlotId write = -1;          ///< the output in the scheduled layout
};

struct LoweredNode {
  StepKind kind = StepKind::kernel;
  std::string detail;
  StepBody run;               ///< empty for a view: the output is the first input's memory
  int in_place_operand = -1;  ///< see Step::in_place_operand
  int64_t constant_bytes = 0;  ///< constants kept outside the pool (reference fallbacks)
  double compile_ms = 0;       ///< JIT time of the node's kernels
  std::vector<int64_t> slice_offsets;  ///< see Step::slice_offsets
  bool shares_team = false;            ///< see Step::shares_team
};

/// Throws KernelError naming the node when the schedule does not fit it. Constants the
/// node's kernels read go into `constants`; multi-stage kernels keep their intermediates in
/// `scratch`, shared by every step of the network (they run one after another).
[[nodiscard]] LoweredNode lower_node(const graph::Graph& graph, graph::NodeId id, const NodeSchedule& schedule,
                                     const NodeOperands& operands, ConstantPool& constants,
                                     const std::shared_ptr<KernelScratch>& scratch);

}  // namespace layoutopt::kernels::network
