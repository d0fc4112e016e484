#include "opset_adapter.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace layoutopt::graph::onnx {

namespace {

/// Removes attribute `name` from the node and returns it, if present.
std::optional<pb::AttributeProto> take_attribute(pb::NodeProto& node, const std::string& name) {
  auto* attributes = node.mutable_attribute();
  for (int i = 0; i < attributes->size(); ++i) {
    if (attributes->Get(i).name() != name) continue;
    pb::AttributeProto attribute = attributes->Get(i);
    attributes->DeleteSubrange(i, 1);
    return attribute;
  }
  return std::nullopt;
}

/// Makes the node's input `slot` the initializer `tensor` (inputs before it that do not
/// exist become omitted optional inputs).
void set_constant_input(pb::GraphProto& graph, pb::NodeProto& node, int slot, pb::TensorProto tensor,
                        const std::string& role) {
  tensor.set_name(node.output(0) + "::" + role);
  while (node.input_size() <= slot) node.add_input("");
  node.set_input(slot, tensor.name());
  *graph.add_initializer() = std::move(tensor);
}

pb::TensorProto int_vector(const pb::AttributeProto& attribute) {
  pb::TensorProto tensor;
  tensor.set_data_type(pb::TensorProto::INT64);
  tensor.add_dims(attribute.ints_size());
  for (int64_t value : attribute.ints()) tensor.add_int64_data(value);
  return tensor;
}

pb::TensorProto float_scalar(float value) {
  pb::TensorProto tensor;
  tensor.set_data_type(pb::TensorProto::FLOAT);
  tensor.add_float_data(value);
  return tensor;
}

pb::TensorProto float_vector(const pb::AttributeProto& attribute) {
  pb::TensorProto tensor;
  tensor.set_data_type(pb::TensorProto::FLOAT);
  tensor.add_dims(attribute.floats_size());
  for (float value : attribute.floats()) tensor.add_float_data(value);
  return tensor;
}

/// Moves an INTS attribute to input `slot`, when the node has it.
void ints_to_input(pb::GraphProto& graph, pb::NodeProto& node, const std::string& name, int slot) {
  if (const auto attribute = take_attribute(node, name)) set_constant_input(graph, node, slot, int_vector(*attribute), name);
}

void adapt_clip(pb::GraphProto& graph, pb::NodeProto& node) {
  if (const auto min = take_attribute(node, "min")) set_constant_input(graph, node, 1, float_scalar(min->f()), "min");
  if (const auto max = take_attribute(node, "max")) set_constant_input(graph, node, 2, float_scalar(max->f()), "max");
}

void adapt_pad(pb::GraphProto& graph, pb::NodeProto& node) {
  ints_to_input(graph, node, "pads", 1);
  if (const auto value = take_attribute(node, "value")) set_constant_input(graph, node, 2, float_scalar(value->f()), "value");
}

void adapt_slice(pb::GraphProto& graph, pb::NodeProto& node) {
  ints_to_input(graph, node, "starts", 1);
  ints_to_input(graph, node, "ends", 2);
  ints_to_input(graph, node, "axes", 3);
}

/// Upsample (opset 7-9) and Resize-10 map output to input coordinates by x / scale and
/// take the nearest pixel below: Resize-11's asymmetric transform with floor rounding.
void adapt_upsample(pb::GraphProto& graph, pb::NodeProto& node) {
  node.set_op_type("Resize");
  if (node.input_size() == 0) return;  // Resize's signature check reports it, naming the node
  std::string scales;
  if (const auto attribute = take_attribute(node, "scales")) {  // Upsample 7-8
    pb::TensorProto tensor = float_vector(*attribute);
    tensor.set_name(node.output(0) + "::scales");
    scales = tensor.name();
    *graph.add_initializer() = std::move(tensor);
  } else if (node.input_size() > 1) {
    scales = node.input(1);
  }
  const std::string x = node.input(0);
  node.clear_input();
  node.add_input(x);
  node.add_input("");  // roi
  node.add_input(scales);
  auto* coordinates = node.add_attribute();
  coordinates->set_name("coordinate_transformation_mode");
  coordinates->set_type(pb::AttributeProto::STRING);
  coordinates->set_s("asymmetric");
  auto* rounding = node.add_attribute();
  rounding->set_name("nearest_mode");
  rounding->set_type(pb::AttributeProto::STRING);
  rounding->set_s("floor");
}

struct Adaptation {
  const char* op_type;
  int64_t before_opset;  ///< applies to files importing an older opset
  std::function<void(pb::GraphProto&, pb::NodeProto&)> adapt;
};

std::function<void(pb::GraphProto&, pb::NodeProto&)> move_ints(const char* name) {
  return [name](pb::GraphProto& graph, pb::NodeProto& node) { ints_to_input(graph, node, name, 1); };
}

const std::vector<Adaptation>& adaptations() {
  static const std::vector<Adaptation> table = {
      {"Clip", 11, adapt_clip},
      {"Pad", 11, adapt_pad},
      {"Slice", 10, adapt_slice},
      {"Squeeze", 13, move_ints("axes")},
      {"Unsqueeze", 13, move_ints("axes")},
      {"Split", 13, move_ints("split")},
      {"ReduceSum", 13, move_ints("axes")},
      {"ReduceMean", 18, move_ints("axes")},
      {"ReduceMax", 18, move_ints("axes")},
      {"ReduceMin", 18, move_ints("axes")},
      {"ReduceProd", 18, move_ints("axes")},
      {"Upsample", 1000, adapt_upsample},  // deprecated at 10, removed later: any opset
      {"Resize", 11, adapt_upsample},
  };
  return table;
}

}  // namespace

void adapt_to_current_opset(pb::GraphProto& graph, int64_t opset) {
  for (pb::NodeProto& node : *graph.mutable_node()) {
    if (!in_default_domain(node) || node.output_size() == 0) continue;
    // One adaptation per node: Upsample becomes a Resize that must not be adapted again.
    for (const Adaptation& adaptation : adaptations())
      if (node.op_type() == adaptation.op_type && opset < adaptation.before_opset) {
        adaptation.adapt(graph, node);
        break;
      }
  }
}

}  // namespace layoutopt::graph::onnx
