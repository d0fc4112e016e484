#pragma once
// Which channel blocks a layout-flexible node can run in. Its kernels keep every tensor they
// touch in NCHW[x]c with one x, so x must divide each tensor's channels; a channel slice's
// kernel copies whole blocks, so x must divide its start too (its length is its output's
// channels). The cost sources offer only these blocks: another would lower to the reference
// fallback, not to the kernel they timed.

#include <cstdint>

#include "layoutopt/graph/graph.h"

namespace layoutopt::planning {

/// The largest count every usable block divides: the gcd of the channels of the node's
/// output and activation inputs, and of a channel slice's start.
[[nodiscard]] int64_t flexible_channel_bound(const graph::Graph& graph, graph::NodeId id);

}  // namespace layoutopt::planning
