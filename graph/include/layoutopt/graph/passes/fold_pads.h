#pragma once
#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

/// Folds a zero pad into the one node that reads it, when that node pads by itself:
///   pad -> conv2d                               conv2d with the pads added to its own
///   pad -> avg pool (no pads, floor mode)       avg pool with those pads, counting them
/// The results are equal: a conv's padding is zeros, and an average over a window of the
/// padded tensor divides by the whole window, as count_include_pad does. Pads with another
/// value, read by several nodes or by anything else (max pooling treats padding as -inf),
/// stay. Returns how many pads were folded.
///
/// Why: torchvision's Inception-v3 export puts an explicit Pad before each of its nine
/// 3x3 average pools; as nodes of their own they copy the tensor, and as layout-flexible
/// nodes without a blocked kernel they run the scalar reference. Evidence:
/// docs/design/concats.md.
int fold_pads(Graph& graph);

}  // namespace layoutopt::graph
