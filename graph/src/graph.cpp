#include "layoutopt/graph/graph.h"

#include <algorithm>
#include <utility>

#include "layoutopt/graph/error.h"

namespace layoutopt::graph {

namespace {

/// Shapes come from files. Past this check every product of some of a value's extents fits in
/// int64_t, so shape inference and the passes can multiply extents without overflow.
void check_extents(const Value& value) {
  int64_t bound = 1;
  for (int64_t extent : value.type.shape) {
    if (extent < 0) throw GraphError("value '" + value.name + "' has a negative extent: " + to_string(value.type.shape));
    if (__builtin_mul_overflow(bound, std::max<int64_t>(extent, 1), &bound))
      throw GraphError("value '" + value.name + "' of shape " + to_string(value.type.shape) +
                       " has more elements than 64 bits can count");
  }
}

}  // namespace

ValueId Graph::add_value(Value value) {
  if (value.name.empty()) throw GraphError("value without a name in graph '" + name_ + "'");
  check_extents(value);
  if (value_names_.contains(value.name)) throw GraphError("duplicate value name '" + value.name + "'");
  const auto id = static_cast<ValueId>(values_.size());
  value_names_.emplace(value.name, id);
  values_.push_back(std::move(value));
  return id;
}

ValueId Graph::add_input(std::string name, TensorType type) {
  const ValueId id = add_value({.name = std::move(name), .type = std::move(type), .kind = ValueKind::input});
  inputs_.push_back(id);
  return id;
}

ValueId Graph::add_parameter(std::string name, Shape shape, WeightData data) {
  if (data.size() != element_count(shape))
    throw GraphError("parameter '" + name + "' of shape " + to_string(shape) + " needs " +
                     std::to_string(element_count(shape)) + " values, found " + std::to_string(data.size()));
  return add_value({.name = std::move(name),
                    .type = {std::move(shape), DType::f32},
                    .kind = ValueKind::parameter,
                    .weights = std::move(data)});
}

void Graph::check_value_id(ValueId id, const std::string& node_name, size_t input_index) const {
  if (id < 0 || static_cast<size_t>(id) >= values_.size())
    throw GraphError("node '" + node_name + "' input " + std::to_string(input_index) + " refers to unknown value #" +
                     std::to_string(id));
}

ValueId Graph::add_node_typed(std::string name, Op op, std::vector<ValueId> inputs, TensorType output) {
  if (name.empty()) name = unique_name(op_name(op));
  if (node_names_.contains(name)) throw GraphError("duplicate node name '" + name + "'");
  for (size_t i = 0; i < inputs.size(); ++i) check_value_id(inputs[i], name, i);
  const auto node_id = static_cast<NodeId>(nodes_.size());
  const std::string value_name = value_names_.contains(name) ? unique_name(name + ":out") : name;
  const ValueId out = add_value({.name = value_name, .type = std::move(output), .producer = node_id});
  node_names_.emplace(name, node_id);
  nodes_.push_back({.name = std::move(name), .op = std::move(op), .inputs = std::move(inputs), .output = out});
  return out;
}

ValueId Graph::add_node(std::string name, Op op, std::vector<ValueId> inputs) {
  if (name.empty()) name = unique_name(op_name(op));
  for (size_t i = 0; i < inputs.size(); ++i) check_value_id(inputs[i], name, i);
  TensorType output = infer_op_type(name, op, typed_operands(*this, inputs));
  return add_node_typed(std::move(name), std::move(op), std::move(inputs), std::move(output));
}

void Graph::add_output(ValueId value) {
  check_value_id(value, "<graph output>", outputs_.size());
  outputs_.push_back(value);
}

std::optional<ValueId> Graph::find_value(const std::string& name) const {
  if (auto it = value_names_.find(name); it != value_names_.end()) return it->second;
  return std::nullopt;
}

std::optional<NodeId> Graph::find_node(const std::string& name) const {
  if (auto it = node_names_.find(name); it != node_names_.end()) return it->second;
  return std::nullopt;
}

std::string Graph::unique_name(const std::string& base) const {
  auto taken = [&](const std::string& candidate) {
    return value_names_.contains(candidate) || node_names_.contains(candidate);
  };
  if (!taken(base)) return base;
  for (int suffix = 2;; ++suffix) {
    std::string candidate = base + "_" + std::to_string(suffix);
    if (!taken(candidate)) return candidate;
  }
}

std::vector<std::vector<NodeId>> Graph::consumers() const {
  std::vector<std::vector<NodeId>> result(values_.size());
  for (size_t n = 0; n < nodes_.size(); ++n)
    for (ValueId input : nodes_[n].inputs) {
      auto& readers = result[static_cast<size_t>(input)];
      if (readers.empty() || readers.back() != static_cast<NodeId>(n)) readers.push_back(static_cast<NodeId>(n));
    }
  return result;
}

void Graph::replace_uses(ValueId from, ValueId to) {
  for (Node& node : nodes_)
    for (ValueId& input : node.inputs)
      if (input == from) input = to;
  for (ValueId& output : outputs_)
    if (output == from) output = to;
}

void Graph::swap_node_names(NodeId a, NodeId b) {
  std::swap(node(a).name, node(b).name);
  node_names_[node(a).name] = a;
  node_names_[node(b).name] = b;
}

void Graph::move_node_before(NodeId moved, NodeId before) {
  if (before < 0 || moved < before || static_cast<size_t>(moved) >= nodes_.size())
    throw GraphError("cannot move node " + std::to_string(moved) + " before node " + std::to_string(before));
  const auto first = nodes_.begin() + before;
  std::rotate(first, nodes_.begin() + moved, nodes_.begin() + moved + 1);
  for (NodeId n = before; n <= moved; ++n) {
    const Node& node = nodes_[static_cast<size_t>(n)];
    values_[static_cast<size_t>(node.output)].producer = n;
    node_names_[node.name] = n;
  }
}

void Graph::remove_nodes(const std::vector<bool>& removed) {
  // Decide which values survive: graph inputs, outputs of kept nodes, and whatever a kept
  // node or the graph's outputs read.
  std::vector<bool> keep_value(values_.size(), false);
  for (ValueId input : inputs_) keep_value[static_cast<size_t>(input)] = true;
  for (ValueId output : outputs_) keep_value[static_cast<size_t>(output)] = true;
  for (size_t n = 0; n < nodes_.size(); ++n) {
    if (n < removed.size() && removed[n]) continue;
    keep_value[static_cast<size_t>(nodes_[n].output)] = true;
    for (ValueId input : nodes_[n].inputs) keep_value[static_cast<size_t>(input)] = true;
  }

  std::vector<ValueId> new_value_id(values_.size(), -1);
  std::vector<Value> kept_values;
  for (size_t v = 0; v < values_.size(); ++v) {
    if (!keep_value[v]) continue;
    new_value_id[v] = static_cast<ValueId>(kept_values.size());
    kept_values.push_back(std::move(values_[v]));
  }
  auto remap = [&](ValueId& id) { id = new_value_id[static_cast<size_t>(id)]; };

  std::vector<Node> kept_nodes;
  for (size_t n = 0; n < nodes_.size(); ++n) {
    if (n < removed.size() && removed[n]) continue;
    Node node = std::move(nodes_[n]);
    for (ValueId& input : node.inputs) remap(input);
    remap(node.output);
    kept_values[static_cast<size_t>(node.output)].producer = static_cast<NodeId>(kept_nodes.size());
    kept_nodes.push_back(std::move(node));
  }
  for (ValueId& input : inputs_) remap(input);
  for (ValueId& output : outputs_) remap(output);

  values_ = std::move(kept_values);
  nodes_ = std::move(kept_nodes);
  value_names_.clear();
  node_names_.clear();
  for (size_t v = 0; v < values_.size(); ++v) value_names_.emplace(values_[v].name, static_cast<ValueId>(v));
  for (size_t n = 0; n < nodes_.size(); ++n) node_names_.emplace(nodes_[n].name, static_cast<NodeId>(n));
}

std::vector<ValueId> activation_inputs(const Graph& graph, NodeId id) {
  std::vector<ValueId> inputs;
  for (ValueId input : graph.node(id).inputs)
    if (graph.value(input).kind != ValueKind::parameter) inputs.push_back(input);
  return inputs;
}

std::vector<TypedOperand> typed_operands(const Graph& graph, const std::vector<ValueId>& values) {
  std::vector<TypedOperand> operands;
  operands.reserve(values.size());
  for (const ValueId id : values) operands.push_back({graph.value(id).name, graph.value(id).type});
  return operands;
}

}  // namespace layoutopt::graph
