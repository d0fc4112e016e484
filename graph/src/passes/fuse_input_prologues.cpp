#include "layoutopt/graph/passes/fuse_input_prologues.h"

#include <algorithm>

#include "batch_norm_parameters.h"
#include "readers.h"

namespace layoutopt::graph {

namespace {

bool cheap_activation(Activation activation) {
  return activation == Activation::none || activation == Activation::relu || activation == Activation::relu6;
}

/// True for a batch norm whose scale, bias, mean and variance are constants and whose fused
/// activation is cheap to apply per element.
bool movable_batch_norm(const Graph& graph, const Node& node) {
  const auto* bn = std::get_if<BatchNorm>(&node.op);
  return bn != nullptr && cheap_activation(bn->activation) && all_parameters(graph, node.inputs, 1);
}

/// True for an unpadded 1x1 groups-1 conv without an input scale or prologue that reads
/// `value` as its data input and nowhere else.
bool takes_prologue(const Node& node, ValueId value) {
  const auto* conv = std::get_if<Conv2d>(&node.op);
  if (conv == nullptr || conv->input_scale || conv->prologue || conv->groups != 1) return false;
  if (conv->kernel != Hw{1, 1} || conv->pads != Pads2d{}) return false;
  return node.inputs.front() == value && std::count(node.inputs.begin(), node.inputs.end(), value) == 1;
}

/// Moves batch norm `bn` into conv `conv_id` as its prologue.
void move_into_conv(Graph& graph, NodeId conv_id, const Node& bn) {
  const auto& bn_op = std::get<BatchNorm>(bn.op);
  const auto gamma = weights_of(graph, bn.inputs[1]);
  const auto beta = weights_of(graph, bn.inputs[2]);
  const auto mean = weights_of(graph, bn.inputs[3]);
  const auto variance = weights_of(graph, bn.inputs[4]);
  std::vector<float> scale(gamma.size()), shift(gamma.size());
  for (size_t c = 0; c < gamma.size(); ++c) {
    scale[c] = normalization_factor(gamma[c], variance[c], bn_op.epsilon);
    shift[c] = beta[c] - mean[c] * scale[c];
  }
  const Shape channels{static_cast<int64_t>(gamma.size())};
  const std::string base = graph.node(conv_id).name;
  const ValueId scale_id = graph.add_parameter(graph.unique_name(base + ".prologue_scale"), channels,
                                               WeightData::from_values(std::move(scale)));
  const ValueId shift_id = graph.add_parameter(graph.unique_name(base + ".prologue_shift"), channels,
                                               WeightData::from_values(std::move(shift)));
  Node& conv = graph.node(conv_id);
  auto& conv_op = std::get<Conv2d>(conv.op);
  conv_op.prologue = InputPrologue{.activation = bn_op.activation};
  conv.inputs.front() = bn.inputs.front();
  conv.inputs.push_back(scale_id);
  conv.inputs.push_back(shift_id);
}

}  // namespace

int fuse_input_prologues(Graph& graph) {
  const Readers readers(graph);
  std::vector<bool> removed(graph.nodes().size(), false);
  int moved = 0;
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    const Node bn = graph.node(static_cast<NodeId>(n));
    if (!movable_batch_norm(graph, bn)) continue;
    const std::optional<NodeId> reader = readers.sole_reader(bn.output, removed);
    if (!reader || !takes_prologue(graph.node(*reader), bn.output)) continue;
    move_into_conv(graph, *reader, bn);
    removed[n] = true;
    ++moved;
  }
  if (moved) graph.remove_nodes(removed);
  return moved;
}

}  // namespace layoutopt::graph
