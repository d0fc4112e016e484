#include "layoutopt/kernels/lowering.h"

#include <algorithm>
#include <functional>
#include <numeric>

#include "layoutopt/graph/overloaded.h"
#include "layoutopt/kernels/error.h"

namespace layoutopt::kernels {

namespace {

// Longest run of floats one work item of a plain slice copies: 64 vectors of 16 floats.
constexpr int64_t kMaxSliceRun = 1024;

template <class Op>
const Op& op_of(const graph::Graph& graph, graph::NodeId id) {
  const graph::Node& node = graph.node(id);
  if (const auto* op = std::get_if<Op>(&node.op)) return *op;
  throw KernelError("node '" + node.name + "' is " + graph::op_name(node.op) + ", not the operator expected here");
}

/// The activation kernel's op and parameters for a unary operator (its tensor left empty).
std::optional<ActivationDesc> activation_of(const graph::Op& op) {
  using Result = std::optional<ActivationDesc>;
  return std::visit(
      graph::Overloaded{
          [](const graph::Relu&) -> Result { return ActivationDesc{.op = ActivationOp::relu}; },
          [](const graph::Clip& clip) -> Result {
            if (clip.min != 0.0f || clip.max != 6.0f) return std::nullopt;
            return ActivationDesc{.op = ActivationOp::relu6};
          },
          [](const graph::Sigmoid&) -> Result { return ActivationDesc{.op = ActivationOp::sigmoid}; },
          [](const graph::Tanh&) -> Result { return ActivationDesc{.op = ActivationOp::tanh}; },
          [](const graph::HardSigmoid& h) -> Result {
            return ActivationDesc{.op = ActivationOp::hard_sigmoid, .alpha = h.alpha, .beta = h.beta};
          },
          [](const graph::HardSwish&) -> Result { return ActivationDesc{.op = ActivationOp::hard_swish}; },
          [](const graph::Silu&) -> Result { return ActivationDesc{.op = ActivationOp::silu}; },
          [](const graph::Gelu& g) -> Result {
            return ActivationDesc{.op = g.form == graph::GeluForm::exact ? ActivationOp::gelu : ActivationOp::gelu_tanh};
          },
          [](const graph::LeakyRelu& l) -> Result {
            return ActivationDesc{.op = ActivationOp::leaky_relu, .alpha = l.alpha};
          },
          [](const auto&) -> Result { return std::nullopt; },
      },
      op);
}

/// True when `shape`, numpy-broadcast against the 4-D `out`, varies along the channels at most.
bool per_channel_shape(const graph::Shape& shape, const graph::Shape& out) {
  if (shape.size() > out.size()) return false;
  const size_t leading = out.size() - shape.size();
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] != 1 && !(d + leading == 1 && shape[d] == out[1])) return false;
  return true;
}

/// How a binary kernel reads operand `other` next to a full-shaped activation, if it can.
std::optional<BinaryOperand> operand_kind(const graph::Graph& graph, graph::ValueId other, const graph::Shape& out) {
  const graph::Value& value = graph.value(other);
  if (value.kind == graph::ValueKind::parameter)
    return per_channel_shape(value.type.shape, out) ? std::optional(BinaryOperand::channel) : std::nullopt;
  if (value.type.shape == out) return BinaryOperand::same_shape;
  if (value.type.shape == graph::Shape{out[0], out[1], 1, 1}) return BinaryOperand::batch_channel;
  return std::nullopt;
}

}  // namespace

bool has_activation_kernel(const graph::Op& op) { return activation_of(op).has_value(); }

ActivationDesc activation_desc(const graph::Graph& graph, graph::NodeId id, const TensorDesc& tensor) {
  const graph::Node& node = graph.node(id);
  std::optional<ActivationDesc> desc = activation_of(node.op);
  if (!desc)
    throw KernelError("node '" + node.name + "' is " + graph::op_name(node.op) + ", which no activation kernel computes");
  desc->tensor = tensor;
  return *desc;
}

ActivationDesc activation_desc(const graph::Graph& graph, graph::NodeId id, int64_t block) {
  return activation_desc(graph, id, tensor_desc(graph, graph.node(id).output, block));
}

std::optional<BinaryOp> binary_op(const graph::Op& op) {
  using Result = std::optional<BinaryOp>;
  return std::visit(graph::Overloaded{
                        [](const graph::Add&) -> Result { return BinaryOp::add; },
                        [](const graph::Sub&) -> Result { return BinaryOp::sub; },
                        [](const graph::Mul&) -> Result { return BinaryOp::mul; },
                        [](const graph::Div&) -> Result { return BinaryOp::div; },
                        [](const graph::Max&) -> Result { return BinaryOp::max; },
                        [](const graph::Min&) -> Result { return BinaryOp::min; },
                        [](const graph::PRelu&) -> Result { return BinaryOp::prelu; },
                        [](const auto&) -> Result { return std::nullopt; },
                    },
                    op);
}

std::optional<ElementwiseBinaryDesc> binary_desc(const graph::Graph& graph, graph::NodeId id, int64_t block) {
  const graph::Node& node = graph.node(id);
  const std::optional<BinaryOp> op = binary_op(node.op);
  if (!op)
    throw KernelError("node '" + node.name + "' is " + graph::op_name(node.op) + ", not an elementwise binary operator");
  const graph::Shape& out = graph.value(node.output).type.shape;
  const TensorDesc tensor = tensor_desc(graph, node.output, block);
  for (const bool other_first : {false, true}) {
    const graph::Value& full = graph.value(node.inputs.at(other_first ? 1 : 0));
    if (full.kind == graph::ValueKind::parameter || full.type.shape != out) continue;
    if (const auto other = operand_kind(graph, node.inputs.at(other_first ? 0 : 1), out))
      return ElementwiseBinaryDesc{tensor, *op, *other, other_first};
  }
  return std::nullopt;
}

std::optional<ElementwiseBinaryDesc> flat_binary_desc(const graph::Graph& graph, graph::NodeId id) {
  const graph::Node& node = graph.node(id);
  const std::optional<BinaryOp> op = binary_op(node.op);
  if (!op)
    throw KernelError("node '" + node.name + "' is " + graph::op_name(node.op) + ", not an elementwise binary operator");
  const graph::Shape& out = graph.value(node.output).type.shape;
  const TensorDesc tensor = flat_tensor_desc(graph, node.output);
  for (const bool other_first : {false, true}) {
    const graph::Value& full = graph.value(node.inputs.at(other_first ? 1 : 0));
    const graph::Value& other = graph.value(node.inputs.at(other_first ? 0 : 1));
    if (full.kind == graph::ValueKind::parameter || full.type.shape != out) continue;
    if (other.kind == graph::ValueKind::parameter && other.weights->values().size() == 1)
      return ElementwiseBinaryDesc{tensor, *op, BinaryOperand::channel, other_first};
    // A constant of another shape broadcasts to the output (shape inference checked it): the
    // lowering expands it to the output's shape, so it is read like a same-shaped operand.
    if (other.type.shape == out || other.kind == graph::ValueKind::parameter)
      return ElementwiseBinaryDesc{tensor, *op, BinaryOperand::same_shape, other_first};
  }
  return std::nullopt;
}

LayerNormDesc layer_norm_desc(const graph::Graph& graph, graph::NodeId id, int64_t block) {
  const auto& norm = op_of<graph::LayerNorm>(graph, id);
  const graph::Shape& shape = graph.value(graph.node(id).output).type.shape;
  const auto axis = static_cast<size_t>(norm.axis);
  if (axis >= shape.size())
    throw KernelError("node '" + graph.node(id).name + "' normalizes axis " + std::to_string(norm.axis) + " of a rank-" +
                      std::to_string(shape.size()) + " tensor");
  LayerNormDesc desc{.outer = 1, .channels = shape[axis], .inner = 1, .block = block, .epsilon = norm.epsilon};
  for (size_t d = 0; d < axis; ++d) desc.outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d) desc.inner *= shape[d];
  return desc;
}

std::optional<ChannelSliceDesc> plain_slice_desc(const graph::Graph& graph, graph::NodeId id) {
  const auto& slice = op_of<graph::Slice>(graph, id);
  const graph::Shape& in = graph.value(graph.node(id).inputs.at(0)).type.shape;
  const auto rank = static_cast<int64_t>(in.size());
  const int64_t axis = slice.axis < 0 ? slice.axis + rank : slice.axis;
  if (axis < 0 || axis >= rank || slice.step != 1) return std::nullopt;
  const int64_t extent = in[static_cast<size_t>(axis)];
  if (slice.start < 0 || slice.start >= slice.end || slice.end > extent) return std::nullopt;
  const int64_t outer = std::accumulate(in.begin(), in.begin() + axis, int64_t{1}, std::multiplies<>());
  const int64_t inner = std::accumulate(in.begin() + axis + 1, in.end(), int64_t{1}, std::multiplies<>());
  return row_range_slice_desc(outer, extent * inner, slice.start * inner, slice.end * inner);
}

ChannelSliceDesc row_range_slice_desc(int64_t rows, int64_t row, int64_t start, int64_t end) {
  // Every float a channel of the [rows, row, 1, 1] view, in blocks of the longest run dividing
  // the kept range's bounds and the row (capped so a block's vector copies stay few): that
  // view in NCHW[run]c is the memory, and each work item copies one run with vector loads.
  const int64_t common = std::gcd(std::gcd(start, end), row);
  int64_t run = std::min(common, kMaxSliceRun);
  while (common % run != 0) --run;
  return ChannelSliceDesc{{.batch = rows, .channels = row, .height = 1, .width = 1, .block = run}, start, end};
}

std::optional<SoftmaxDesc> last_axis_softmax_desc(const graph::Graph& graph, graph::NodeId id) {
  const auto& softmax = op_of<graph::Softmax>(graph, id);
  const graph::Shape& shape = graph.value(graph.node(id).output).type.shape;
  const auto rank = static_cast<int64_t>(shape.size());
  if (rank < 2 || (softmax.axis != rank - 1 && softmax.axis != -1)) return std::nullopt;
  const int64_t rows = std::accumulate(shape.begin(), shape.end() - 1, int64_t{1}, std::multiplies<>());
  return SoftmaxDesc{rows, shape.back(), 1};
}

TensorDesc flat_tensor_desc(const graph::Graph& graph, graph::ValueId value) {
  int64_t elements = 1;
  for (const int64_t extent : graph.value(value).type.shape) elements *= extent;
  return {.batch = 1, .channels = 1, .height = 1, .width = elements, .block = 1};
}

Activation lower_activation(graph::Activation activation) {
  switch (activation) {
    case graph::Activation::none: return Activation::None;
    case graph::Activation::relu: return Activation::Relu;
    case graph::Activation::relu6: return Activation::Relu6;
    case graph::Activation::hard_swish: return Activation::HardSwish;
    case graph::Activation::hard_sigmoid: return Activation::HardSigmoid;
    case graph::Activation::silu: return Activation::Silu;
    case graph::Activation::sigmoid: return Activation::Sigmoid;
    case graph::Activation::gelu: return Activation::Gelu;
    case graph::Activation::gelu_tanh: return Activation::GeluTanh;
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
          .epilogue = lower_epilogue(conv.epilogue),
          .input_scale = conv.input_scale,
          .prologue = conv.prologue ? std::optional(lower_activation(conv.prologue->activation)) : std::nullopt};
}

std::vector<float> conv2d_bias_operand(const graph::Graph& graph, graph::NodeId id) {
  const graph::Node& node = graph.node(id);
  const graph::ConvInputs inputs = graph::conv_inputs(op_of<graph::Conv2d>(graph, id));
  std::vector<float> values;
  for (const std::optional<size_t> input : {inputs.bias, inputs.prologue_scale, inputs.prologue_shift}) {
    if (!input) continue;
    const std::span<const float> part = graph.value(node.inputs.at(*input)).weights->values();
    values.insert(values.end(), part.begin(), part.end());
  }
  return values;
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
