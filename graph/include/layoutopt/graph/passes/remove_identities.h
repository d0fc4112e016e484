#pragma once
#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

/// Removes identity and dropout nodes (inference keeps every activation) and concats of a
/// single tensor (torchvision's DenseNet starts every block with one), rewiring their
/// readers to the node's input. Returns how many were removed.
int remove_identities(Graph& graph);

}  // namespace layoutopt::graph
