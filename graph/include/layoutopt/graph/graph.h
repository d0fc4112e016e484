#pragma once
// The graph IR: values (graph inputs, parameters, node results) and nodes that compute one
// value each from others. Nodes are kept in insertion order, which builders and importers
// keep topological; `topological_order` recovers an order for graphs edited by hand.
//
//   Graph g("tiny");
//   ValueId x = g.add_input("data", {{1, 3, 224, 224}});
//   ValueId w = g.add_parameter("conv1.weight", {64, 3, 7, 7}, WeightData::seeded({1}, 64*3*7*7));
//   ValueId y = g.add_node("conv1", Conv2d{.kernel = {7, 7}, .stride = {2, 2}, ...}, {x, w});
//   g.add_output(y);

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "layoutopt/graph/op_type_inference.h"
#include "layoutopt/graph/ops.h"
#include "layoutopt/graph/tensor_type.h"
#include "layoutopt/graph/weights.h"
#include "layoutopt/layout/layout.h"

namespace layoutopt::graph {

using ValueId = int32_t;
using NodeId = int32_t;
inline constexpr NodeId kNoProducer = -1;

enum class ValueKind { input, parameter, intermediate };

struct Value {
  std::string name;
  TensorType type;
  ValueKind kind = ValueKind::intermediate;
  NodeId producer = kNoProducer;
  /// Contents of a parameter; empty for inputs and intermediates.
  std::optional<WeightData> weights;
  // No physical layout here: the graph is the algorithm. Which layout each value takes is
  // data of the plan (planning::Plan), materialized by the compiler, as in XLA.
};

struct Node {
  std::string name;
  Op op;
  std::vector<ValueId> inputs;
  ValueId output = -1;
};

class Graph {
 public:
  explicit Graph(std::string name = "graph") : name_(std::move(name)) {}

  [[nodiscard]] const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }

  ValueId add_input(std::string name, TensorType type);
  ValueId add_parameter(std::string name, Shape shape, WeightData data);
  /// Adds a node and infers its output type at once; throws GraphError naming the node
  /// and input when the inputs do not fit the operator.
  ValueId add_node(std::string name, Op op, std::vector<ValueId> inputs);
  /// Adds a node whose output type is already known (deserialization); call
  /// `infer_shapes` afterwards to check it.
  ValueId add_node_typed(std::string name, Op op, std::vector<ValueId> inputs, TensorType output);
  void add_output(ValueId value);

  [[nodiscard]] const std::vector<Value>& values() const { return values_; }
  [[nodiscard]] const std::vector<Node>& nodes() const { return nodes_; }
  [[nodiscard]] const std::vector<ValueId>& inputs() const { return inputs_; }
  [[nodiscard]] const std::vector<ValueId>& outputs() const { return outputs_; }
  [[nodiscard]] const Value& value(ValueId id) const { return values_.at(static_cast<size_t>(id)); }
  [[nodiscard]] Value& value(ValueId id) { return values_.at(static_cast<size_t>(id)); }
  [[nodiscard]] const Node& node(NodeId id) const { return nodes_.at(static_cast<size_t>(id)); }
  [[nodiscard]] Node& node(NodeId id) { return nodes_.at(static_cast<size_t>(id)); }

  [[nodiscard]] std::optional<ValueId> find_value(const std::string& name) const;
  [[nodiscard]] std::optional<NodeId> find_node(const std::string& name) const;
  /// `base` if unused as a value and node name, else `base_2`, `base_3`, ...
  [[nodiscard]] std::string unique_name(const std::string& base) const;

  /// Nodes reading each value, indexed by ValueId (computed on demand: passes edit the graph).
  [[nodiscard]] std::vector<std::vector<NodeId>> consumers() const;
  /// Makes every node input and graph output that reads `from` read `to` instead.
  void replace_uses(ValueId from, ValueId to);
  /// Exchanges the names of two nodes: a pass that exchanges the operators of two nodes
  /// keeps each name with its operator, as profiles and plans refer to it.
  void swap_node_names(NodeId a, NodeId b);
  /// Moves node `moved` to the place of node `before` (an earlier one), shifting the nodes
  /// between one place on: a pass that appends a node keeps the order topological so.
  /// NodeIds from `before` on are invalid after this call.
  void move_node_before(NodeId moved, NodeId before);
  /// Removes the marked nodes, then every value nothing reads any more (except graph
  /// inputs), renumbering what is left. Ids held across this call are invalid.
  void remove_nodes(const std::vector<bool>& removed);

 private:
  ValueId add_value(Value value);
  void check_value_id(ValueId id, const std::string& node_name, size_t input_index) const;

  std::string name_;
  std::vector<Value> values_;
  std::vector<Node> nodes_;
  std::vector<ValueId> inputs_;
  std::vector<ValueId> outputs_;
  std::unordered_map<std::string, ValueId> value_names_;
  std::unordered_map<std::string, NodeId> node_names_;
};

/// Activation inputs of a node: the inputs that are not parameters, in input order (for
/// conv2d the data and, when fused, the residual and the input scale; input_roles.h tells
/// them apart).
[[nodiscard]] std::vector<ValueId> activation_inputs(const Graph& graph, NodeId id);

/// The names and current types of `values`, as operator type inference reads its inputs.
[[nodiscard]] std::vector<TypedOperand> typed_operands(const Graph& graph, const std::vector<ValueId>& values);

}  // namespace layoutopt::graph
