#include "layoutopt/graph/validate.h"

#include "layoutopt/graph/error.h"
#include "layoutopt/graph/shape_inference.h"
#include "layoutopt/graph/topology.h"

namespace layoutopt::graph {

namespace {

void check_sources(const Graph& graph) {
  for (const Node& node : graph.nodes())
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      const Value& input = graph.value(node.inputs[i]);
      if (input.kind == ValueKind::intermediate && input.producer == kNoProducer)
        throw GraphError("node '" + node.name + "' input " + std::to_string(i) + " '" + input.name +
                         "' is dangling: no node produces it and it is neither a graph input nor a parameter");
    }
  for (const Value& value : graph.values())
    if (value.kind == ValueKind::parameter && !value.weights)
      throw GraphError("parameter '" + value.name + "' has no weights");
}

/// A conv2d's input scale must be computed: the activation inputs' roles count on it (a
/// constant scale belongs folded into the weights).
void check_conv_scales(const Graph& graph) {
  for (const Node& node : graph.nodes()) {
    const auto* conv = std::get_if<Conv2d>(&node.op);
    if (conv == nullptr || !conv->input_scale) continue;
    const std::optional<size_t> scale = conv_inputs(*conv).scale;
    if (*scale < node.inputs.size() && graph.value(node.inputs[*scale]).kind == ValueKind::parameter)
      throw GraphError("node '" + node.name + "' (conv2d): its input scale '" + graph.value(node.inputs[*scale]).name +
                       "' is a parameter; a constant scale belongs in the weights");
  }
}

/// A conv2d's prologue scale and shift must be constants: kernels read them with the
/// weights, once per compiled network.
void check_conv_prologues(const Graph& graph) {
  for (const Node& node : graph.nodes()) {
    const auto* conv = std::get_if<Conv2d>(&node.op);
    if (conv == nullptr || !conv->prologue) continue;
    const ConvInputs inputs = conv_inputs(*conv);
    for (const size_t position : {*inputs.prologue_scale, *inputs.prologue_shift})
      if (position < node.inputs.size() && graph.value(node.inputs[position]).kind != ValueKind::parameter)
        throw GraphError("node '" + node.name + "' (conv2d): its prologue's '" + graph.value(node.inputs[position]).name +
                         "' is computed; a prologue's scale and shift are constants");
  }
}

void check_types(const Graph& graph, const std::vector<NodeId>& order) {
  for (NodeId id : order) {
    const Node& node = graph.node(id);
    const TensorType inferred = infer_output_type(graph, node);
    const TensorType& stored = graph.value(node.output).type;
    if (inferred != stored)
      throw GraphError("node '" + node.name + "' (" + op_name(node.op) + "): output '" +
                       graph.value(node.output).name + "' is recorded as " + to_string(stored.shape) +
                       " but its inputs give " + to_string(inferred.shape));
  }
}

}  // namespace

void validate(const Graph& graph) {
  if (graph.outputs().empty()) throw GraphError("graph '" + graph.name() + "' has no outputs");
  check_sources(graph);
  check_conv_scales(graph);
  check_conv_prologues(graph);
  check_types(graph, topological_order(graph));
}

}  // namespace layoutopt::graph
