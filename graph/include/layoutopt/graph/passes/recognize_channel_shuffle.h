#pragma once
#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

/// Replaces ShuffleNet's channel shuffle, written as
///   Reshape [N, C, H, W] -> [N, g, C/g, H, W] -> Transpose (0, 2, 1, 3, 4) -> Reshape [N, C, H, W]
/// with one ChannelShuffle{g} node, when the two 5-D intermediates are read by nothing else
/// (nor are graph outputs). The new node keeps the last reshape's name and output value, so
/// its readers are unchanged. Returns how many chains were replaced.
///
/// Why: the 5-D intermediates have no data layout, so as three nodes the chain forces its
/// tensor back to NCHW and copies it twice; as one operator it is a single channel
/// permutation the planner can place like any other 4-D node.
int recognize_channel_shuffle(Graph& graph);

}  // namespace layoutopt::graph
