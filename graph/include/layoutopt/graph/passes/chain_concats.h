#pragma once
#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

/// Rewrites a concat whose inputs start with exactly the inputs of an earlier concat (same
/// axis, same order, at least two of them) to read that concat's result instead:
/// concat(x0, ..., xk) becomes concat(concat(x0, ..., x{k-1}), xk). The tensors are equal,
/// and the copies are as many.
///
/// Why: torchvision's DenseNet re-concatenates every earlier feature map in each layer, so
/// each feature map is read by every later concat of its block. As a layout problem that
/// is a dense bipartite graph whose tree width grows with the block (DP has to refuse it);
/// chained, every feature map has one or two readers and the width stays small, the shape
/// the built-in densenets have. The feature maps also die one layer after they are made
/// instead of at the end of the block. Returns how many concats were rewritten.
int chain_concats(Graph& graph);

}  // namespace layoutopt::graph
