#include "constant_table.h"

#include "constant_folding.h"
#include "layoutopt/graph/error.h"
#include "node_naming.h"

namespace layoutopt::graph::onnx {

ConstantTable::ConstantTable(const pb::GraphProto& graph) {
  for (const pb::TensorProto& initializer : graph.initializer()) tensors_[initializer.name()] = &initializer;
  for (int i = 0; i < graph.node_size(); ++i) {
    const pb::NodeProto& node = graph.node(i);
    if (in_default_domain(node) && node.op_type() == "Constant") add_constant_node(node, static_cast<size_t>(i));
  }
}

// A Constant's tensor attribute is used in place (it may be a whole weight); the scalar and
// list forms are small and go through the fold rule.
void ConstantTable::add_constant_node(const pb::NodeProto& node, size_t index) {
  const std::string label = node_label(node, index);
  if (node.output_size() != 1) throw GraphError(label + ": expected one output");
  for (const pb::AttributeProto& attribute : node.attribute())
    if (attribute.name() == "value" && attribute.type() == pb::AttributeProto::TENSOR) {
      tensors_[node.output(0)] = &attribute.t();
      return;
    }
  const FoldContext context(node, label, {});
  add(node.output(0), find_fold_rule("Constant")->fold(context).front());
}

const pb::TensorProto* ConstantTable::find(const std::string& name) const {
  const auto it = tensors_.find(name);
  return it == tensors_.end() ? nullptr : it->second;
}

const ConstantValue* ConstantTable::value(const std::string& name) {
  if (const auto it = decoded_.find(name); it != decoded_.end()) return it->second;
  const pb::TensorProto* tensor = find(name);
  if (!tensor) return nullptr;
  owned_values_.push_back(decode(*tensor));
  return decoded_[name] = &owned_values_.back();
}

void ConstantTable::add(const std::string& name, ConstantValue value) {
  owned_tensors_.push_back(encode(value, name));
  tensors_[name] = &owned_tensors_.back();
  owned_values_.push_back(std::move(value));
  decoded_[name] = &owned_values_.back();
}

}  // namespace layoutopt::graph::onnx
