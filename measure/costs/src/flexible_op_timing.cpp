#include "layoutopt/costs/flexible_op_timing.h"

#include <algorithm>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "layoutopt/costs/flexible_ops.h"
#include "layoutopt/graph/tensor_type.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/timing/cost_policy.h"
#include "layoutopt/tuning/activation_placement.h"
#include "layoutopt/tuning/timed_operands.h"

namespace layoutopt::costs {

namespace {

using Kernels = std::vector<kernels::Kernel>;

/// One buffer size for every operand: the largest tensor the node touches. Kernels read only
/// what their layout needs, so the slack costs memory, not time.
size_t operand_floats(const graph::Graph& graph, const graph::Node& node) {
  int64_t floats = graph::element_count(graph.value(node.output).type.shape);
  for (graph::ValueId input : node.inputs) floats = std::max(floats, graph::element_count(graph.value(input).type.shape));
  return static_cast<size_t>(floats);
}

/// Where activation input `i` of the node lies in a timed operand: its whole tensor in the
/// blocked layout's planes of rows; nothing (and so not placed) when the node has no such
/// input or the block does not divide its channels. Constants are not activations: a network
/// does not leave them in cache.
tuning::ActivationExtent input_extent(const graph::Graph& graph, graph::NodeId id, size_t i, int64_t block) {
  const std::vector<graph::ValueId> inputs = graph::activation_inputs(graph, id);
  if (i >= inputs.size()) return {};
  const graph::Shape& shape = graph.value(inputs[i]).type.shape;
  if (shape.size() < 2 || shape[1] % block != 0) return {};
  const layout::Layout blocked = layout::Layout::channel_blocked(shape.size(), block);
  return {graph::element_count(shape), tuning::row_plane_floats(shape, blocked)};
}

double time_kernels(const Kernels& kernels, const graph::Graph& graph, graph::NodeId id, int64_t block,
                    const timing::TimingPolicy& policy) {
  const graph::Node& node = graph.node(id);
  // Nothing to run (a concat whose inputs all sit in place): no time to measure, and timing
  // an empty body to the policy's minimum would take hundreds of thousands of flushes.
  if (kernels.empty()) return 0.0;
  const auto count = static_cast<int64_t>(operand_floats(graph, node));
  tuning::KernelOperands operands({count, count, count, count, count});
  const kernels::KernelArgs args = operands.args();
  // The first input is the kernels' input; a binary op's second is their residual operand.
  const tuning::ActivationExtent input = input_extent(graph, id, 0, block), second = input_extent(graph, id, 1, block);
  // Concat is one copy kernel per input, run one after another as an executor would.
  return timing::time_cost(
             policy, [&] {
               for (const kernels::Kernel& kernel : kernels) kernel(args);
             },
             [&] { operands.place_activations(input, second); })
      .ms.median;
}

/// Runs `step` on node `id` in NCHW[block]c, naming both when a kernel cannot be built.
template <class Step>
auto named_errors(const graph::Graph& graph, graph::NodeId id, int64_t block, const Step& step) {
  try {
    return step();
  } catch (const kernels::KernelError& e) {
    throw std::runtime_error("cannot time node '" + graph.node(id).name + "' (" + graph::op_name(graph.node(id).op) +
                             ") in " + layout::Layout::channel_blocked(4, block).str() + ": " + e.what());
  }
}

/// The first node running each distinct kernel, in node order and then block order: the one
/// it is timed on.
struct Timed {
  graph::NodeId id;
  int64_t block;
  FlexibleOp op;
};

/// Every distinct kernel of the graph's flexible nodes in their offered blocks, and of its
/// rigid nodes that run a kernel in canonical order (timed as block 1).
std::vector<Timed> distinct_ops(const graph::Graph& graph, const ShapeLayouts& offered) {
  std::vector<Timed> ops;
  std::set<planning::FlexibleKernel> seen;
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    const auto id = static_cast<graph::NodeId>(n);
    if (!is_layout_flexible(graph, id)) {
      std::optional<FlexibleOp> canonical = named_errors(graph, id, 1, [&] { return canonical_op(graph, id); });
      if (canonical && seen.insert(canonical->kernel).second) ops.push_back({id, 1, std::move(*canonical)});
      continue;
    }
    for (int64_t block : offered_blocks(graph, id, offered)) {
      FlexibleOp op = named_errors(graph, id, block, [&] { return flexible_op(graph, id, block); });
      if (seen.insert(op.kernel).second) ops.push_back({id, block, std::move(op)});
    }
  }
  return ops;
}

}  // namespace

FlexibleOpTable time_flexible_ops(const graph::Graph& graph, const ShapeLayouts& offered,
                                  const timing::TimingPolicy& policy, timing::ProgressReporter* progress) {
  const std::vector<Timed> ops = distinct_ops(graph, offered);
  FlexibleOpTable table;
  for (size_t k = 0; k < ops.size(); ++k) {
    const Timed& timed = ops[k];
    const double ms = named_errors(graph, timed.id, timed.block, [&] {
      return time_kernels(timed.op.compile(), graph, timed.id, timed.block, policy);
    });
    table.emplace(timed.op.kernel, ms);
    if (progress) {
      std::ostringstream status;
      status << "[Flexible op " << k + 1 << "/" << ops.size() << "] " << timed.op.label << ": " << ms << " ms";
      progress->update(static_cast<double>(k + 1), static_cast<double>(ops.size()), status.str());
    }
  }
  return table;
}

}  // namespace layoutopt::costs
