#include "layoutopt/graph/input_roles.h"

namespace layoutopt::graph {

namespace {

/// The role of node input `position`, were it an activation.
InputRole role_at(const Node& node, size_t position) {
  const auto* conv = std::get_if<Conv2d>(&node.op);
  if (conv == nullptr) return InputRole::data;
  const ConvInputs inputs = conv_inputs(*conv);
  if (inputs.residual == position) return InputRole::residual;
  if (inputs.scale == position) return InputRole::scale;
  return InputRole::data;
}

}  // namespace

const char* to_string(InputRole role) {
  switch (role) {
    case InputRole::data: return "input";
    case InputRole::residual: return "residual";
    case InputRole::scale: return "input scale";
  }
  return "?";
}

std::vector<InputRole> activation_input_roles(const Graph& graph, NodeId id) {
  const Node& node = graph.node(id);
  std::vector<InputRole> roles;
  for (size_t i = 0; i < node.inputs.size(); ++i)
    if (graph.value(node.inputs[i]).kind != ValueKind::parameter) roles.push_back(role_at(node, i));
  return roles;
}

std::vector<layout::Layout> tuned_input_layouts(const Graph& graph, NodeId id, const layout::Layout& input,
                                                const layout::Layout& output) {
  std::vector<layout::Layout> layouts;
  for (InputRole role : activation_input_roles(graph, id)) {
    switch (role) {
      case InputRole::data: layouts.push_back(input); break;
      case InputRole::residual: layouts.push_back(output); break;
      case InputRole::scale: layouts.push_back(layout::Layout::nchw()); break;
    }
  }
  return layouts;
}

}  // namespace layoutopt::graph
