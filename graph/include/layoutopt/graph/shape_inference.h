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

/// Reshape's target with -1 inferred and, where `zero_copies` (ONNX's default, and the IR's
/// rule), each 0 replaced by the input's extent on that axis. Throws GraphError, without a
/// node name, when the target is malformed (two -1s, a negative extent, a 0 past the input's
/// rank, more elements than 64 bits count) or holds another element count.
[[nodiscard]] Shape resolve_reshape_target(const Shape& input, const Shape& target, bool zero_copies = true);

/// Elements a slice keeps: start, start + step, ... before end (step >= 1).
[[nodiscard]] int64_t slice_output_extent(int64_t start, int64_t end, int64_t step);

}  // namespace layoutopt::graph
