#include "layoutopt/kernels/network/default_schedule.h"

#include <numeric>

#include "layoutopt/graph/input_roles.h"
#include "layoutopt/graph/overloaded.h"
#include "layoutopt/kernels/lowering.h"
#include "layoutopt/kernels/tunable_op.h"

namespace layoutopt::kernels {

namespace {

NodeSchedule tuned_default(const graph::Graph& graph, graph::NodeId id, const TunableOp& op) {
  const int64_t index = op.default_index();
  const OpLayouts layouts = op.layouts(index);
  return {graph::tuned_input_layouts(graph, id, layouts.input, layouts.output), layouts.output, op.knobs(index)};
}

/// Operators that only rename memory or need canonical order keep the canonical layout.
bool layout_rigid(const graph::Op& op) {
  return std::holds_alternative<graph::Flatten>(op) || std::holds_alternative<graph::Reshape>(op) ||
         std::holds_alternative<graph::Transpose>(op) || std::holds_alternative<graph::Softmax>(op) ||
         std::holds_alternative<graph::BatchMatMul>(op);
}

// The op as a step-1 slice of the channels; null for other ops.
const graph::Slice* channel_slice(const graph::Op& op) {
  const auto* slice = std::get_if<graph::Slice>(&op);
  return slice != nullptr && slice->axis == 1 && slice->step == 1 ? slice : nullptr;
}

// The channel counts a block of `channels` must also divide so that the channel slices read
// from the output stay whole blocks: each slice's start and width (shufflenet's split of a
// shuffled 464 into halves of 232, whose own default block is 58 with AVX-512 where 464's is
// 16).
int64_t with_channel_slices(const graph::Graph& graph, const std::vector<graph::NodeId>& readers, int64_t channels) {
  for (graph::NodeId reader : readers)
    if (const graph::Slice* slice = channel_slice(graph.node(reader).op))
      channels = std::gcd(channels, std::gcd(slice->start, slice->end - slice->start));
  return channels;
}

NodeSchedule flexible_default(const graph::Graph& graph, graph::NodeId id, const std::vector<graph::NodeId>& readers) {
  const graph::Node& node = graph.node(id);
  const std::vector<graph::ValueId> inputs = graph::activation_inputs(graph, id);
  const graph::Shape& out = graph.value(node.output).type.shape;
  int64_t block = 1;
  if (out.size() == 4 && !layout_rigid(node.op)) {
    int64_t channels = with_channel_slices(graph, readers, out[1]);
    for (graph::ValueId input : inputs) channels = std::gcd(channels, graph.value(input).type.shape[1]);
    // A channel slice's own start too, or its block could straddle it (gcd(c, 0) = c).
    if (const graph::Slice* slice = channel_slice(node.op)) channels = std::gcd(channels, slice->start);
    block = default_channel_block(channels);
  }
  auto layout_of = [&](const graph::Shape& shape) {
    return shape.size() == 4 && block > 1 ? layout::Layout::nchwc(block) : layout::canonical_data_layout(shape.size());
  };
  NodeSchedule schedule{{}, layout_of(out), {}};
  for (graph::ValueId input : inputs) schedule.inputs.push_back(layout_of(graph.value(input).type.shape));
  return schedule;
}

}  // namespace

NetworkSchedule default_network_schedule(const graph::Graph& graph) {
  const std::vector<std::vector<graph::NodeId>> readers = graph.consumers();
  NetworkSchedule schedule;
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    const auto id = static_cast<graph::NodeId>(n);
    const graph::Op& op = graph.node(id).op;
    if (std::holds_alternative<graph::Conv2d>(op))
      schedule.nodes.push_back(tuned_default(graph, id, TunableOp::conv2d_default_algorithm(conv2d_desc(graph, id))));
    else if (std::holds_alternative<graph::Dense>(op))
      schedule.nodes.push_back(tuned_default(graph, id, TunableOp::dense(dense_desc(graph, id))));
    else
      schedule.nodes.push_back(flexible_default(graph, id, readers.at(static_cast<size_t>(graph.node(id).output))));
  }
  return schedule;
}

}  // namespace layoutopt::kernels
