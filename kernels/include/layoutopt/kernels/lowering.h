#pragma once
// From graph nodes to kernel descriptors: the one place that knows both the IR's operator
// attributes and the kernels' value objects.

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/batch_norm.h"
#include "layoutopt/kernels/conv2d_desc.h"
#include "layoutopt/kernels/dense.h"
#include "layoutopt/kernels/pool2d.h"
#include "layoutopt/kernels/tensor_desc.h"

namespace layoutopt::kernels {

[[nodiscard]] Activation lower_activation(graph::Activation activation);
[[nodiscard]] Epilogue lower_epilogue(const graph::Epilogue& epilogue);
/// Descriptor of a conv2d node; throws KernelError for any other operator.
[[nodiscard]] Conv2dDesc conv2d_desc(const graph::Graph& graph, graph::NodeId node);
/// Descriptor of a dense node; throws KernelError for any other operator.
[[nodiscard]] DenseDesc dense_desc(const graph::Graph& graph, graph::NodeId node);
/// Descriptor of a batch-norm node whose tensor is stored in NCHW[block]c (its fused
/// activation included); throws KernelError for any other operator.
[[nodiscard]] BatchNormDesc batch_norm_desc(const graph::Graph& graph, graph::NodeId node, int64_t block);
/// A 4-D activation value stored in NCHW[block]c; throws KernelError for another rank.
[[nodiscard]] TensorDesc tensor_desc(const graph::Graph& graph, graph::ValueId value, int64_t block);
/// Descriptor of a pool2d node whose input is stored in NCHW[block]c (the output extents are
/// the node's inferred ones, so ceil mode needs nothing special); throws KernelError for any
/// other operator.
[[nodiscard]] Pool2dDesc pool2d_desc(const graph::Graph& graph, graph::NodeId node, int64_t block);

}  // namespace layoutopt::kernels
