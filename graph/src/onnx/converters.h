#pragma once
// One converter per supported ONNX operator (see op_converters.h for the table). Each reads
// its node through a NodeContext and returns the IR value of the node's output.

#include "import_context.h"

namespace layoutopt::graph::onnx {

// convert_window_ops.cpp: operators sliding a 2-D window, padding and LRN.
ValueId convert_conv(NodeContext& node);
ValueId convert_conv_transpose(NodeContext& node);
ValueId convert_lrn(NodeContext& node);
ValueId convert_max_pool(NodeContext& node);
ValueId convert_average_pool(NodeContext& node);
ValueId convert_pad(NodeContext& node);

// convert_resize.cpp
ValueId convert_resize(NodeContext& node);

// convert_elementwise_ops.cpp
ValueId convert_hard_sigmoid(NodeContext& node);
ValueId convert_leaky_relu(NodeContext& node);
ValueId convert_prelu(NodeContext& node);
ValueId convert_cast(NodeContext& node);

// convert_transposed_ops.cpp: operators that read a deferred transpose in place.
ValueId convert_transpose(NodeContext& node);
ValueId convert_layer_normalization(NodeContext& node);
ValueId convert_gelu(NodeContext& node);

// convert_shape_ops.cpp
ValueId convert_squeeze(NodeContext& node);
ValueId convert_unsqueeze(NodeContext& node);
ValueId convert_slice(NodeContext& node);
ValueId convert_gather(NodeContext& node);
ValueId convert_split(NodeContext& node);
ValueId convert_reduce_mean(NodeContext& node);

// convert_dense_ops.cpp
ValueId convert_gemm(NodeContext& node);
ValueId convert_matmul(NodeContext& node);

// convert_einsum.cpp: Einsum that is a batched matrix product.
ValueId convert_einsum(NodeContext& node);

// convert_simple_ops.cpp
ValueId convert_batch_norm(NodeContext& node);
ValueId convert_clip(NodeContext& node);
ValueId convert_concat(NodeContext& node);
ValueId convert_flatten(NodeContext& node);
ValueId convert_reshape(NodeContext& node);
ValueId convert_softmax(NodeContext& node);
ValueId convert_dropout(NodeContext& node);

/// Operators whose ONNX and IR forms are the same apart from the name, with no attributes.
template <class IrOp>
ValueId convert_unary(NodeContext& node) {
  return node.add(IrOp{}, {node.input(0)});
}
template <class IrOp>
ValueId convert_binary(NodeContext& node) {
  return node.add(IrOp{}, {node.input(0), node.input(1)});
}
/// Sum, Max and Min take any number of inputs: a chain of the binary IR op.
template <class IrOp>
ValueId convert_variadic(NodeContext& node) {
  ValueId result = node.input(0);
  for (size_t slot = 1; slot < node.input_count(); ++slot) result = node.add(IrOp{}, {result, node.input(slot)});
  return node.input_count() == 1 ? node.add(Identity{}, {result}) : result;
}

}  // namespace layoutopt::graph::onnx
