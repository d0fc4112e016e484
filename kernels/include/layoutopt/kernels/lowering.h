#pragma once
// From graph nodes to kernel descriptors: the one place that knows both the IR's operator
// attributes and the kernels' value objects.

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/conv2d_desc.h"
#include "layoutopt/kernels/dense.h"

namespace layoutopt::kernels {

[[nodiscard]] Epilogue lower_epilogue(const graph::Epilogue& epilogue);
/// Descriptor of a conv2d node; throws KernelError for any other operator.
[[nodiscard]] Conv2dDesc conv2d_desc(const graph::Graph& graph, graph::NodeId node);
/// Descriptor of a dense node; throws KernelError for any other operator.
[[nodiscard]] DenseDesc dense_desc(const graph::Graph& graph, graph::NodeId node);

}  // namespace layoutopt::kernels
