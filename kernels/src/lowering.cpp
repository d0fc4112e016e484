#include "layoutopt/kernels/lowering.h"

#include "layoutopt/kernels/error.h"

namespace layoutopt::kernels {

namespace {

template <class Op>
const Op& op_of(const graph::Graph& graph, graph::NodeId id) {
  const graph::Node& node = graph.node(id);
  if (const auto* op = std::get_if<Op>(&node.op)) return *op;
  throw KernelError("node '" + node.name + "' is " + graph::op_name(node.op) + ", not the operator expected here");
}

}  // namespace

Activation lower_activation(graph::Activation activation) {
  switch (activation) {
    case graph::Activation::none: return Activation::None;
    case graph::Activation::relu: return Activation::Relu;
    case graph::Activation::relu6: return Activation::Relu6;
  }
  return Activation::None;
}

Epilogue lower_epilogue(const graph::Epilogue& e) {
  return {.bias = e.bias,
          .activation = lower_activation(e.activation),
          .residual = e.residual,
          .post_residual_activation = lower_activation(e.post_activation)};
}

BatchNormDesc batch_norm_desc(const graph::Graph& graph, graph::NodeId id, int64_t block) {
  const auto& bn = op_of<graph::BatchNorm>(graph, id);
  return {.tensor = tensor_desc(graph, graph.node(id).output, block), .activation = lower_activation(bn.activation)};
}

Conv2dDesc conv2d_desc(const graph::Graph& graph, graph::NodeId id) {
  const auto& conv = op_of<graph::Conv2d>(graph, id);
  const graph::Node& node = graph.node(id);
  const graph::Shape& x = graph.value(node.inputs[0]).type.shape;
  const graph::Shape& w = graph.value(node.inputs[1]).type.shape;
  return {.batch = x[0],
          .in_channels = x[1],
          .in_h = x[2],
          .in_w = x[3],
          .out_channels = w[0],
          .kernel_h = conv.kernel.h,
          .kernel_w = conv.kernel.w,
          .stride_h = conv.stride.h,
          .stride_w = conv.stride.w,
          .pad_top = conv.pads.top,
          .pad_left = conv.pads.left,
          .pad_bottom = conv.pads.bottom,
          .pad_right = conv.pads.right,
          .dilation_h = conv.dilation.h,
          .dilation_w = conv.dilation.w,
          .groups = conv.groups,
          .epilogue = lower_epilogue(conv.epilogue)};
}

DenseDesc dense_desc(const graph::Graph& graph, graph::NodeId id) {
  const auto& dense = op_of<graph::Dense>(graph, id);
  const graph::Node& node = graph.node(id);
  const graph::Shape& x = graph.value(node.inputs[0]).type.shape;
  const graph::Shape& w = graph.value(node.inputs[1]).type.shape;
  return {.batch = x[0], .in_features = x[1], .out_features = w[0], .epilogue = lower_epilogue(dense.epilogue)};
}

TensorDesc tensor_desc(const graph::Graph& graph, graph::ValueId value, int64_t block) {
  const graph::Value& v = graph.value(value);
  const graph::Shape& s = v.type.shape;
  if (s.size() != 4)
    throw KernelError("value '" + v.name + "' has rank " + std::to_string(s.size()) + ", NCHW[x]c needs rank 4");
  return {.batch = s[0], .channels = s[1], .height = s[2], .width = s[3], .block = block};
}

Pool2dDesc pool2d_desc(const graph::Graph& graph, graph::NodeId id, int64_t block) {
  const auto& pool = op_of<graph::Pool2d>(graph, id);
  const graph::Node& node = graph.node(id);
  const graph::Shape& y = graph.value(node.output).type.shape;
  return {.input = tensor_desc(graph, node.inputs[0], block),
          .kind = pool.kind == graph::PoolKind::max ? PoolKind::max : PoolKind::average,
          .kernel_h = pool.kernel.h,
          .kernel_w = pool.kernel.w,
          .stride_h = pool.stride.h,
          .stride_w = pool.stride.w,
          .pad_top = pool.pads.top,
          .pad_left = pool.pads.left,
          .pad_bottom = pool.pads.bottom,
          .pad_right = pool.pads.right,
          .count_include_pad = pool.count_include_pad,
          .out_h = y[2],
          .out_w = y[3]};
}

}  // namespace layoutopt::kernels
