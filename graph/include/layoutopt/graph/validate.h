#pragma once
#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

/// Checks a graph before anything trusts it: it has outputs, no node reads a value that
/// nothing produces (a dangling input), there are no cycles, parameters hold weights, and
/// every stored type equals the inferred one. Throws GraphError with the first problem.
void validate(const Graph& graph);

}  // namespace layoutopt::graph
