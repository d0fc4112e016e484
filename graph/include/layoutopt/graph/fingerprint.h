#pragma once
// The structure fingerprint: a digest of what a graph computes, not of what its parts are
// called or which weights they hold. It covers each value's kind and shape, each node's
// operator with its attributes and the values it reads and writes, and the graph's inputs
// and outputs. A plan records it, so a plan is refused for a graph wired differently under
// the same node names (planning::validate_plan).

#include <string>

#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

/// 16 hex digits: FNV-1a (64 bits) of the structure's canonical JSON text.
[[nodiscard]] std::string structure_fingerprint(const Graph& graph);

}  // namespace layoutopt::graph
