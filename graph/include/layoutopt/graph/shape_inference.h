#pragma once
// Shape inference: the output type of every operator from its inputs' types. Errors name
// the node, its operator, the offending input and what was expected versus found.

#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

/// Output type of `node` from the current types of its inputs in `graph`.
[[nodiscard]] TensorType infer_output_type(const Graph& graph, const Node& node);

/// Re-infers every node's output type in topological order, overwriting stored types.
/// Throws GraphError at the first node whose inputs do not fit.
void infer_shapes(Graph& graph);

/// Output extent of a sliding window (conv or pool) along one axis.
[[nodiscard]] int64_t window_output_extent(int64_t input, int64_t kernel, int64_t stride, int64_t dilation,
                                           int64_t pad_begin, int64_t pad_end, bool ceil_mode);

/// Output extent of a transposed convolution along one axis (ONNX ConvTranspose):
/// (input - 1) * stride - pads + dilation * (kernel - 1) + output_padding + 1.
[[nodiscard]] int64_t transposed_window_output_extent(int64_t input, int64_t kernel, int64_t stride, int64_t dilation,
                                                      int64_t pad_begin, int64_t pad_end, int64_t output_padding);

/// Elements a slice keeps: start, start + step, ... before end (step >= 1).
[[nodiscard]] int64_t slice_output_extent(int64_t start, int64_t end, int64_t step);

}  // namespace layoutopt::graph
