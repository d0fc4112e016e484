#pragma once
#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

/// Moves the work a conv or dense kernel can do on its way out into the node's Epilogue:
/// a following activation (relu, relu6 = clip 0..6, hard swish, silu, sigmoid, or hard
/// sigmoid with PyTorch's alpha 1/6 and beta 1/2), then for conv a residual add of a same-shaped tensor,
/// then another such activation. A batch norm left unfolded (after a concat, as in
/// DenseNet) takes a following activation the same way, also through a reshape or flatten
/// between them (the activation then runs before it). A step is fused only when the
/// node's result is read by that node alone and is not a graph output, so no intermediate
/// anyone needs is lost.
/// Returns how many nodes were absorbed.
int fuse_epilogues(Graph& graph);

}  // namespace layoutopt::graph
