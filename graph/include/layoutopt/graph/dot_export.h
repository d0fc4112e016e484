#pragma once
// Graphviz DOT output of a graph: one box per node labelled with its operator and output
// shape, edges labelled with the tensor they carry. Parameters are folded into their
// node's label so large networks stay readable.

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

/// A node drawn on edges that carry `value` (e.g. a layout transform inserted there): the
/// edges from its producer to `readers` (and to the graph outputs, with `to_outputs`) pass
/// through it.
struct DotEdgeNode {
  ValueId value = -1;
  std::vector<NodeId> readers;
  bool to_outputs = false;
  std::string label;
  std::string shape = "diamond";
  std::string color = "white";
};

struct DotStyle {
  /// Extra label lines and a fill colour per node (e.g. the layout a plan chose); empty = none.
  std::function<std::string(NodeId)> node_note;
  std::function<std::string(NodeId)> node_color;
  std::vector<DotEdgeNode> edge_nodes;
  /// Caption of the whole drawing (e.g. a colour legend); may hold several lines.
  std::string caption;
};

[[nodiscard]] std::string to_dot(const Graph& graph, const DotStyle& style = {});
void save_dot(const Graph& graph, const std::filesystem::path& path, const DotStyle& style = {});

}  // namespace layoutopt::graph
