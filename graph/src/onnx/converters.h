#pragma once
// One converter per supported ONNX operator (see op_converters.h for the table). Each reads
// its node through a NodeContext and returns the IR value of the node's output.

#include "import_context.h"

namespace layoutopt::graph::onnx {

// convert_window_ops.cpp: operators sliding a 2-D window, and padding.
ValueId convert_conv(NodeContext& node);
ValueId convert_max_pool(NodeContext& node);
ValueId convert_average_pool(NodeContext& node);
ValueId convert_pad(NodeContext& node);

// convert_dense_ops.cpp
ValueId convert_gemm(NodeContext& node);
ValueId convert_matmul(NodeContext& node);

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

}  // namespace layoutopt::graph::onnx
