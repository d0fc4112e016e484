#include "constant_table.h"

#include "attribute_reader.h"
#include "layoutopt/graph/error.h"
#include "node_naming.h"
#include "tensor_reader.h"

namespace layoutopt::graph::onnx {

namespace {

pb::TensorProto float_tensor(std::vector<int64_t> dims, const std::vector<float>& values) {
  pb::TensorProto tensor;
  tensor.set_data_type(pb::TensorProto::FLOAT);
  for (int64_t dim : dims) tensor.add_dims(dim);
  for (float value : values) tensor.add_float_data(value);
  return tensor;
}

pb::TensorProto int_tensor(std::vector<int64_t> dims, const std::vector<int64_t>& values) {
  pb::TensorProto tensor;
  tensor.set_data_type(pb::TensorProto::INT64);
  for (int64_t dim : dims) tensor.add_dims(dim);
  for (int64_t value : values) tensor.add_int64_data(value);
  return tensor;
}

/// The tensor a Constant node defines, from whichever of its value attributes it has.
pb::TensorProto constant_value(const pb::NodeProto& node, const std::string& label) {
  const AttributeReader attributes(node, label);
  if (attributes.has("value")) return attributes.get_tensor("value");
  if (attributes.has("value_float")) return float_tensor({}, {attributes.get_float("value_float", 0.0f)});
  if (attributes.has("value_int")) return int_tensor({}, {attributes.get_int("value_int", 0)});
  if (attributes.has("value_floats")) {
    const std::vector<float> values = attributes.get_floats("value_floats");
    return float_tensor({static_cast<int64_t>(values.size())}, values);
  }
  if (attributes.has("value_ints")) {
    const std::vector<int64_t> values = attributes.get_ints("value_ints", {});
    return int_tensor({static_cast<int64_t>(values.size())}, values);
  }
  throw GraphError(label + ": only numeric tensor values are supported (not sparse or string constants)");
}

}  // namespace

ConstantTable::ConstantTable(const pb::GraphProto& graph) : folded_(static_cast<size_t>(graph.node_size()), false) {
  for (const pb::TensorProto& initializer : graph.initializer()) tensors_[initializer.name()] = &initializer;
  // Nodes are in topological order, so a Cast sees its input's constant if there is one.
  for (size_t i = 0; i < folded_.size(); ++i) {
    const pb::NodeProto& node = graph.node(static_cast<int>(i));
    if (!in_default_domain(node)) continue;
    if (node.op_type() == "Constant") add_constant_node(node, i);
    else if (node.op_type() == "Cast") folded_[i] = fold_cast(node, i);
  }
}

const pb::TensorProto* ConstantTable::find(const std::string& name) const {
  const auto it = tensors_.find(name);
  return it == tensors_.end() ? nullptr : it->second;
}

void ConstantTable::add(const std::string& name, pb::TensorProto tensor) {
  tensor.set_name(name);
  owned_.push_back(std::move(tensor));
  tensors_[name] = &owned_.back();
}

void ConstantTable::add_constant_node(const pb::NodeProto& node, size_t index) {
  if (node.output_size() != 1) throw GraphError(node_label(node, index) + ": expected one output");
  add(node.output(0), constant_value(node, node_label(node, index)));
  folded_[index] = true;
}

bool ConstantTable::fold_cast(const pb::NodeProto& node, size_t index) {
  if (node.input_size() != 1 || node.output_size() != 1) return false;
  const pb::TensorProto* input = find(node.input(0));
  if (!input) return false;
  const AttributeReader attributes(node, node_label(node, index));
  const int64_t to = attributes.get_int("to", 0);
  const auto dims = tensor_shape(*input);
  if (to == pb::TensorProto::FLOAT) add(node.output(0), float_tensor(dims, read_floats(*input)));
  else if (to == pb::TensorProto::INT64) add(node.output(0), int_tensor(dims, read_ints(*input)));
  else return false;
  return true;
}

}  // namespace layoutopt::graph::onnx
