#pragma once
// Graph algorithms over the IR, done with Boost.Graph on a node-level dependency view.

#include <vector>

#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

/// Nodes ordered so that every node comes after the producers of its inputs. Throws
/// GraphError naming a node on a cycle when there is one.
[[nodiscard]] std::vector<NodeId> topological_order(const Graph& graph);

/// Weakly connected components of the node graph: component index per node, and the count.
struct Components {
  std::vector<int> of_node;
  int count = 0;
};
[[nodiscard]] Components connected_components(const Graph& graph);

}  // namespace layoutopt::graph
