#include "layoutopt/graph/passes/fold_batch_norm.h"

#include "batch_norm_parameters.h"
#include "readers.h"

namespace layoutopt::graph {

namespace {

/// Rewrites conv `conv_id` to include the normalization of `bn`.
void fold_into_conv(Graph& graph, NodeId conv_id, const Node& bn) {
  const auto& bn_op = std::get<BatchNorm>(bn.op);
  const auto scale = weights_of(graph, bn.inputs[1]);
  const auto beta = weights_of(graph, bn.inputs[2]);
  const auto mean = weights_of(graph, bn.inputs[3]);
  const auto variance = weights_of(graph, bn.inputs[4]);

  Node& conv = graph.node(conv_id);
  auto& conv_op = std::get<Conv2d>(conv.op);
  const Value& weight = graph.value(conv.inputs[1]);
  const auto w = weight.weights->values();
  const size_t out_channels = scale.size();
  const size_t per_channel = w.size() / out_channels;

  std::vector<float> new_w(w.begin(), w.end());
  std::vector<float> new_b(out_channels, 0.0f);
  const std::span<const float> old_b =
      conv_op.epilogue.bias ? weights_of(graph, conv.inputs[2]) : std::span<const float>{};
  for (size_t c = 0; c < out_channels; ++c) {
    const float s = normalization_factor(scale[c], variance[c], bn_op.epsilon);
    for (size_t i = 0; i < per_channel; ++i) new_w[c * per_channel + i] *= s;
    new_b[c] = ((old_b.empty() ? 0.0f : old_b[c]) - mean[c]) * s + beta[c];
  }

  const Shape w_shape = weight.type.shape;
  const std::string base = conv.name;
  const ValueId w_id = graph.add_parameter(graph.unique_name(base + ".folded_weight"), w_shape,
                                           WeightData::from_values(std::move(new_w)));
  const ValueId b_id = graph.add_parameter(graph.unique_name(base + ".folded_bias"), {static_cast<int64_t>(out_channels)},
                                           WeightData::from_values(std::move(new_b)));
  Node& folded = graph.node(conv_id);
  folded.inputs[1] = w_id;
  if (std::get<Conv2d>(folded.op).epilogue.bias) {
    folded.inputs[2] = b_id;
  } else {
    std::get<Conv2d>(folded.op).epilogue.bias = true;
    folded.inputs.insert(folded.inputs.begin() + 2, b_id);
  }
}

}  // namespace

int fold_batch_norm(Graph& graph) {
  const Readers readers(graph);
  std::vector<bool> removed(graph.nodes().size(), false);
  int count = 0;
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    const Node bn = graph.node(static_cast<NodeId>(n));
    if (!std::holds_alternative<BatchNorm>(bn.op) || !all_parameters(graph, bn.inputs, 1)) continue;
    const ValueId x = bn.inputs[0];
    const NodeId producer = graph.value(x).producer;
    if (producer == kNoProducer || !std::holds_alternative<Conv2d>(graph.node(producer).op)) continue;
    const Node& conv = graph.node(producer);
    if (readers.sole_reader(x, removed) != static_cast<NodeId>(n) || !all_parameters(graph, conv.inputs, 1)) continue;
    if (std::get<Conv2d>(conv.op).epilogue != Epilogue{.bias = std::get<Conv2d>(conv.op).epilogue.bias}) continue;
    fold_into_conv(graph, producer, bn);
    graph.replace_uses(bn.output, x);
    removed[n] = true;
    ++count;
  }
  if (count) graph.remove_nodes(removed);
  return count;
}

}  // namespace layoutopt::graph
