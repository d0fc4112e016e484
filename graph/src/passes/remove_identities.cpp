#include "layoutopt/graph/passes/remove_identities.h"

namespace layoutopt::graph {

int remove_identities(Graph& graph) {
  std::vector<bool> removed(graph.nodes().size(), false);
  int count = 0;
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    const Node& node = graph.node(static_cast<NodeId>(n));
    if (!std::holds_alternative<Identity>(node.op) && !std::holds_alternative<Dropout>(node.op)) continue;
    graph.replace_uses(node.output, node.inputs.at(0));
    removed[n] = true;
    ++count;
  }
  if (count) graph.remove_nodes(removed);
  return count;
}

}  // namespace layoutopt::graph
