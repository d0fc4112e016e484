#pragma once
#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

/// Removes identity and dropout nodes (inference keeps every activation), concats of a
/// single tensor (torchvision's DenseNet starts every block with one) and pads of zero
/// width (its ONNX export puts one before every transition's pooling), rewiring their
/// readers to the node's input. Returns how many were removed.
int remove_identities(Graph& graph);

}  // namespace layoutopt::graph
