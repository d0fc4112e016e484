#include "layoutopt/graph/passes/remove_identities.h"

namespace layoutopt::graph {

namespace {

bool is_identity(const Node& node) {
  if (std::holds_alternative<Identity>(node.op) || std::holds_alternative<Dropout>(node.op)) return true;
  if (const auto* pad = std::get_if<Pad>(&node.op)) return pad->pads == Pads2d{};
  return std::holds_alternative<Concat>(node.op) && node.inputs.size() == 1;
}

}  // namespace

int remove_identities(Graph& graph) {
  std::vector<bool> removed(graph.nodes().size(), false);
  int count = 0;
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    const Node& node = graph.node(static_cast<NodeId>(n));
    if (!is_identity(node)) continue;
    graph.replace_uses(node.output, node.inputs.at(0));
    removed[n] = true;
    ++count;
  }
  if (count) graph.remove_nodes(removed);
  return count;
}

}  // namespace layoutopt::graph
