#include "layoutopt/graph/shape_inference.h"

#include "layoutopt/graph/topology.h"

namespace layoutopt::graph {

TensorType infer_output_type(const Graph& graph, const Node& node) {
  return infer_op_type(node.name, node.op, typed_operands(graph, node.inputs));
}

void infer_shapes(Graph& graph) {
  for (NodeId id : topological_order(graph)) {
    Node& node = graph.node(id);
    graph.value(node.output).type = infer_output_type(graph, node);
  }
}

}  // namespace layoutopt::graph
