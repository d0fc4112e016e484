#pragma once
// Shape inference over a graph: each node's output type from the current types of its inputs
// (op_type_inference.h types one operator). Errors name the node, its operator, the offending
// input and what was expected versus found.

#include "layoutopt/graph/graph.h"
#include "layoutopt/graph/op_type_inference.h"

namespace layoutopt::graph {

/// Output type of `node` from the current types of its inputs in `graph`.
[[nodiscard]] TensorType infer_output_type(const Graph& graph, const Node& node);

/// Re-infers every node's output type in topological order, overwriting stored types.
/// Throws GraphError at the first node whose inputs do not fit.
void infer_shapes(Graph& graph);

}  // namespace layoutopt::graph
