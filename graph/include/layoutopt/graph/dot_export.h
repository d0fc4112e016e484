#pragma once
// Graphviz DOT output of a graph: one box per node labelled with its operator and output
// shape, edges labelled with the tensor they carry. Parameters are folded into their
// node's label so large networks stay readable.

#include <filesystem>
#include <functional>
#include <string>

#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

struct DotStyle {
  /// Extra label lines and a fill colour per node (e.g. the layout a plan chose); empty = none.
  std::function<std::string(NodeId)> node_note;
  std::function<std::string(NodeId)> node_color;
};

[[nodiscard]] std::string to_dot(const Graph& graph, const DotStyle& style = {});
void save_dot(const Graph& graph, const std::filesystem::path& path, const DotStyle& style = {});

}  // namespace layoutopt::graph
