#pragma once
// From graph nodes to kernel descriptors: the one place that knows both the IR's operator
// attributes and the kernels' value objects.

#include <optional>

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/activation.h"
#include "layoutopt/kernels/batch_norm.h"
#include "layoutopt/kernels/channel_slice.h"
#include "layoutopt/kernels/conv2d_desc.h"
#include "layoutopt/kernels/dense.h"
#include "layoutopt/kernels/elementwise_binary.h"
#include "layoutopt/kernels/layer_norm.h"
#include "layoutopt/kernels/pool2d.h"
#include "layoutopt/kernels/softmax.h"
#include "layoutopt/kernels/tensor_desc.h"

namespace layoutopt::kernels {

[[nodiscard]] Activation lower_activation(graph::Activation activation);
[[nodiscard]] Epilogue lower_epilogue(const graph::Epilogue& epilogue);
/// Descriptor of a conv2d node; throws KernelError for any other operator.
[[nodiscard]] Conv2dDesc conv2d_desc(const graph::Graph& graph, graph::NodeId node);
/// The bias operand of a conv2d node as its kernels take it (Conv2dDesc::bias_floats): its
/// biases, then its prologue's scales and shifts, all constants; empty when it has none.
[[nodiscard]] std::vector<float> conv2d_bias_operand(const graph::Graph& graph, graph::NodeId node);
/// Descriptor of a dense node; throws KernelError for any other operator.
[[nodiscard]] DenseDesc dense_desc(const graph::Graph& graph, graph::NodeId node);
/// Descriptor of a batch-norm node whose tensor is stored in NCHW[block]c (its fused
/// activation included); throws KernelError for any other operator.
[[nodiscard]] BatchNormDesc batch_norm_desc(const graph::Graph& graph, graph::NodeId node, int64_t block);
/// True for the unary operators an activation kernel computes: relu, clip to [0, 6] (relu6),
/// sigmoid, tanh, hard sigmoid, hard swish, silu and leaky relu.
[[nodiscard]] bool has_activation_kernel(const graph::Op& op);
/// Descriptor of such a node with its 4-D output stored in NCHW[block]c; throws KernelError
/// for any other operator.
[[nodiscard]] ActivationDesc activation_desc(const graph::Graph& graph, graph::NodeId node, int64_t block);
/// The same on `tensor`, the memory the kernel streams (e.g. flat_tensor_desc of the output).
[[nodiscard]] ActivationDesc activation_desc(const graph::Graph& graph, graph::NodeId node, const TensorDesc& tensor);
/// The binary kernel's op for add, sub, mul, div, max, min and prelu; nullopt for the others.
[[nodiscard]] std::optional<BinaryOp> binary_op(const graph::Op& op);
/// Descriptor of a binary node (see binary_op) with its tensors stored in NCHW[block]c, when
/// a kernel computes it: a full-shaped activation and, on either side, an activation of the
/// same shape, an N x C x 1 x 1 activation, or a constant that broadcasts along C only
/// (C x 1 x 1, 1 x C x 1 x 1, a single value; its values are then 1 or C floats). nullopt for
/// other operands; throws KernelError for any other operator.
[[nodiscard]] std::optional<ElementwiseBinaryDesc> binary_desc(const graph::Graph& graph, graph::NodeId node,
                                                               int64_t block);
/// Descriptor of a binary node (see binary_op) of any rank whose operands share one memory
/// order, as a kernel over the flat output: an activation of the output's shape and, on
/// either side, an activation or a constant of that shape (ViT's position embedding), a
/// constant holding a single value (a scalar, broadcast), or a constant of another shape
/// that broadcasts to the output's (read expanded to it: Swin's attention bias and mask). nullopt for other operands; throws KernelError for any other operator.
[[nodiscard]] std::optional<ElementwiseBinaryDesc> flat_binary_desc(const graph::Graph& graph, graph::NodeId node);
/// Descriptor of a layer-norm node whose tensor is stored with its normalized axis split in
/// blocks of `block` (NCHW[block]c for the channels of a 4-D tensor; 1 for canonical order);
/// throws KernelError for any other operator.
[[nodiscard]] LayerNormDesc layer_norm_desc(const graph::Graph& graph, graph::NodeId node, int64_t block);
/// A step-1 slice node along any axis of a tensor in canonical order, as the channel slice of
/// the [outer, extent * inner, 1, 1] tensor in NCHW[run]c (outer, extent, inner: the axes
/// before, along and after the sliced one; run: a long run of floats dividing the kept range's
/// bounds); nullopt for other steps or a range that is empty or leaves the tensor. Throws
/// KernelError for any other operator.
[[nodiscard]] std::optional<ChannelSliceDesc> plain_slice_desc(const graph::Graph& graph, graph::NodeId node);
/// Floats [start, end) of each of `rows` rows of `row` floats in memory, as the channel slice
/// of the [rows, row, 1, 1] tensor in NCHW[run]c (run as above).
[[nodiscard]] ChannelSliceDesc row_range_slice_desc(int64_t rows, int64_t row, int64_t start, int64_t end);
/// A softmax node over the last axis of a tensor of rank 2 or more in canonical order, as rows
/// of that extent; nullopt over another axis. Throws KernelError for any other operator.
[[nodiscard]] std::optional<SoftmaxDesc> last_axis_softmax_desc(const graph::Graph& graph, graph::NodeId node);
/// A value of any rank as one flat stream of its elements (1 x 1 x 1 x count, block 1): the
/// tensor of an elementwise kernel whose operands share one memory order.
[[nodiscard]] TensorDesc flat_tensor_desc(const graph::Graph& graph, graph::ValueId value);
/// A 4-D activation value stored in NCHW[block]c; throws KernelError for another rank.
[[nodiscard]] TensorDesc tensor_desc(const graph::Graph& graph, graph::ValueId value, int64_t block);
/// Descriptor of a pool2d node whose input is stored in NCHW[block]c (the output extents are
/// the node's inferred ones, so ceil mode needs nothing special); throws KernelError for any
/// other operator.
[[nodiscard]] Pool2dDesc pool2d_desc(const graph::Graph& graph, graph::NodeId node, int64_t block);

}  // namespace layoutopt::kernels
