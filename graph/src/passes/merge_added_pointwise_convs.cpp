#include "layoutopt/graph/passes/merge_added_pointwise_convs.h"

#include <optional>

#include "batch_norm_parameters.h"
#include "pointwise_conv.h"
#include "readers.h"

namespace layoutopt::graph {

namespace {

/// The conv producing `value` when it qualifies as one term of a merged sum.
std::optional<NodeId> pointwise_term(const Graph& graph, ValueId value) {
  const NodeId producer = graph.value(value).producer;
  if (producer == kNoProducer) return std::nullopt;
  const Node& node = graph.node(producer);
  const auto* conv = std::get_if<Conv2d>(&node.op);
  // Ungrouped: the weights of both terms then join as whole rows.
  if (conv == nullptr || !is_pointwise_affine(*conv) || conv->groups != 1 || !all_parameters(graph, node.inputs, 1))
    return std::nullopt;
  // The concat's inputs are written in place by their producers; a graph input would be copied.
  if (graph.value(node.inputs[0]).producer == kNoProducer) return std::nullopt;
  return producer;
}

struct Sum {
  NodeId node, first, second;
};

std::optional<Sum> find_mergeable_sum(const Graph& graph) {
  const Readers readers(graph);
  const std::vector<bool> none_removed(graph.nodes().size(), false);
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    const Node& node = graph.node(static_cast<NodeId>(n));
    if (!std::holds_alternative<Add>(node.op) || node.inputs.size() != 2) continue;
    const ValueId a = node.inputs[0], b = node.inputs[1];
    const TensorType& type = graph.value(node.output).type;
    if (a == b || graph.value(a).type != type || graph.value(b).type != type) continue;  // no broadcasting
    const std::optional<NodeId> first = pointwise_term(graph, a), second = pointwise_term(graph, b);
    if (!first || !second) continue;
    if (readers.sole_reader(a, none_removed) != static_cast<NodeId>(n) ||
        readers.sole_reader(b, none_removed) != static_cast<NodeId>(n))
      continue;
    if (graph.node(*first).inputs[0] == graph.node(*second).inputs[0]) continue;  // one conv with summed weights
    return Sum{static_cast<NodeId>(n), *first, *second};
  }
  return std::nullopt;
}

/// [O, C1 + C2] weights: row o is the first conv's row o, then the second's.
std::vector<float> joined_rows(std::span<const float> first, std::span<const float> second, size_t rows) {
  const size_t c1 = first.size() / rows, c2 = second.size() / rows;
  std::vector<float> joined;
  joined.reserve(first.size() + second.size());
  for (size_t o = 0; o < rows; ++o) {
    joined.insert(joined.end(), first.begin() + static_cast<std::ptrdiff_t>(o * c1),
                  first.begin() + static_cast<std::ptrdiff_t>((o + 1) * c1));
    joined.insert(joined.end(), second.begin() + static_cast<std::ptrdiff_t>(o * c2),
                  second.begin() + static_cast<std::ptrdiff_t>((o + 1) * c2));
  }
  return joined;
}

void add_bias(const Graph& graph, const Node& conv, std::vector<float>& sum) {
  const std::optional<size_t> bias = conv_inputs(std::get<Conv2d>(conv.op)).bias;
  if (!bias) return;
  const std::span<const float> values = weights_of(graph, conv.inputs[*bias]);
  for (size_t o = 0; o < sum.size(); ++o) sum[o] += values[o];
}

void merge(Graph& graph, const Sum& sum) {
  const Node first = graph.node(sum.first);
  const Node second = graph.node(sum.second);
  const Shape out = graph.value(first.output).type.shape;  // a copy: adding values moves them
  const auto rows = static_cast<size_t>(out[1]);
  std::vector<float> weights = joined_rows(weights_of(graph, first.inputs[1]), weights_of(graph, second.inputs[1]), rows);
  std::vector<float> bias(rows, 0.0f);
  add_bias(graph, first, bias);
  add_bias(graph, second, bias);

  const Shape w_shape{out[1], static_cast<int64_t>(weights.size() / rows), 1, 1};
  const ValueId w_id = graph.add_parameter(graph.unique_name(first.name + ".merged_weight"), w_shape,
                                           WeightData::from_values(std::move(weights)));
  const ValueId b_id = graph.add_parameter(graph.unique_name(first.name + ".merged_bias"), {out[1]},
                                           WeightData::from_values(std::move(bias)));
  const ValueId joined =
      graph.add_node(graph.unique_name(first.name + ".inputs"), Concat{.axis = 1}, {first.inputs[0], second.inputs[0]});

  // The sum's node becomes the merged conv, so its result keeps its id and readers; the
  // concat goes right before it, after both of its inputs' producers.
  Conv2d merged = std::get<Conv2d>(first.op);
  merged.epilogue = Epilogue{.bias = true};
  Node& node = graph.node(sum.node);
  node.op = merged;
  node.inputs = {joined, w_id, b_id};
  graph.swap_node_names(sum.node, sum.first);
  graph.move_node_before(graph.value(joined).producer, sum.node);  // the terms come before: their ids stay

  std::vector<bool> removed(graph.nodes().size(), false);
  removed[static_cast<size_t>(sum.first)] = removed[static_cast<size_t>(sum.second)] = true;
  graph.remove_nodes(removed);
}

}  // namespace

int merge_added_pointwise_convs(Graph& graph) {
  int merged = 0;
  for (std::optional<Sum> sum = find_mergeable_sum(graph); sum; sum = find_mergeable_sum(graph)) {
    merge(graph, *sum);
    ++merged;
  }
  return merged;
}

}  // namespace layoutopt::graph
