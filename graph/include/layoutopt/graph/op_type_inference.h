#pragma once
// Type inference of one operator: its output type from its inputs' names and types, with no
// graph around it, so Graph::add_node can type a node before it exists and graph.h need not
// know inference. Graph-level inference (every node of a graph) is shape_inference.h.
// Errors name the node, its operator, the offending input and what was expected versus found.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "layoutopt/graph/ops.h"
#include "layoutopt/graph/tensor_type.h"

namespace layoutopt::graph {

/// One input of an operator as inference sees it: its value's name (for messages) and type.
struct TypedOperand {
  std::string name;
  TensorType type;
};

/// Output type of operator `op` of node `node_name` on `inputs`; throws GraphError when the
/// inputs do not fit it.
[[nodiscard]] TensorType infer_op_type(const std::string& node_name, const Op& op,
                                       const std::vector<TypedOperand>& inputs);

/// Numpy broadcasting of two shapes: the result, or the result's first axis on which their
/// extents differ with neither 1.
struct Broadcast {
  Shape shape;
  std::optional<size_t> clash;
};
[[nodiscard]] Broadcast broadcast_shapes(const Shape& a, const Shape& b);

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
