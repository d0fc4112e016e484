#pragma once
#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

/// Rewrites the sum of two 1x1 convs, each read only by the sum, into one 1x1 conv over
/// the concat of their inputs:
///   conv(x, W1) + b1  +  conv(y, W2) + b2      becomes      conv([x; y], [W1 | W2]) + (b1 + b2)
/// Both convs must be unit-stride, unpadded, ungrouped and plain (nothing after their bias),
/// and read values some node computes (a graph input in the concat would be copied).
/// The merged conv takes the first conv's name; the sum's readers read it. Exact up to the
/// order of the additions. Returns how many sums were merged.
///
/// Why: ResNet's projection blocks end in conv3(x) + downsample(x'), both 1x1 once strided
/// shortcuts are subsampled. Apart, the shortcut conv writes a whole output that the other
/// conv reads back as its residual (3.2 MB in ResNet-50's first stage); merged, that tensor
/// is never stored, two steps become one and the concat costs nothing because its inputs
/// are written in place (docs/design/merged-projections.md).
int merge_added_pointwise_convs(Graph& graph);

}  // namespace layoutopt::graph
