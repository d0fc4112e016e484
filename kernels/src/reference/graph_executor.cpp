#include "layoutopt/kernels/reference/graph_executor.h"

#include "layoutopt/graph/overloaded.h"
#include "layoutopt/graph/topology.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/lowering.h"
#include "layoutopt/kernels/reference/conv2d.h"
#include "layoutopt/kernels/reference/conv_transpose2d.h"
#include "layoutopt/kernels/reference/dense.h"
#include "layoutopt/kernels/reference/elementwise.h"
#include "layoutopt/kernels/reference/lrn.h"
#include "layoutopt/kernels/reference/pool2d.h"
#include "layoutopt/kernels/reference/resize.h"
#include "layoutopt/kernels/reference/tensor_ops.h"

namespace layoutopt::kernels::reference {

namespace {

using graph::NodeId;
using graph::ValueId;

/// The node's inputs (activations and parameters), in input order.
using NodeInputs = std::span<const HostTensor* const>;

/// Holds every value's contents while the graph runs.
class Environment {
 public:
  explicit Environment(const graph::Graph& graph) : tensors_(graph.values().size()) {
    for (size_t v = 0; v < graph.values().size(); ++v) {
      const graph::Value& value = graph.values()[v];
      if (!value.weights) continue;
      const auto weights = value.weights->values();
      tensors_[v].shape = value.type.shape;
      tensors_[v].data.assign(weights.begin(), weights.end());
    }
  }

  const HostTensor& operator[](ValueId id) const { return tensors_[static_cast<size_t>(id)]; }
  HostTensor& operator[](ValueId id) { return tensors_[static_cast<size_t>(id)]; }

 private:
  std::vector<HostTensor> tensors_;
};

const float* data_or_null(NodeInputs in, size_t index) { return index < in.size() ? in[index]->data.data() : nullptr; }

const float* data_or_null(NodeInputs in, std::optional<size_t> index) {
  return index ? data_or_null(in, *index) : nullptr;
}

HostTensor run_conv(const graph::Graph& graph, NodeId id, NodeInputs in) {
  const Conv2dDesc desc = conv2d_desc(graph, id);
  const graph::ConvInputs positions = graph::conv_inputs(std::get<graph::Conv2d>(graph.node(id).op));
  HostTensor out(graph.value(graph.node(id).output).type.shape);
  // With a prologue, the bias operand holds its scales and shifts after the biases, as the
  // kernels take them (Conv2dDesc::prologue).
  const std::vector<float> constants = desc.prologue ? conv2d_bias_operand(graph, id) : std::vector<float>{};
  const float* bias = desc.prologue ? constants.data() : data_or_null(in, positions.bias);
  const float* residual = data_or_null(in, positions.residual);
  if (positions.scale)
    conv2d_scaled(desc, in[0]->data.data(), data_or_null(in, positions.scale), in[1]->data.data(), bias, residual,
                  out.data.data());
  else
    conv2d(desc, in[0]->data.data(), in[1]->data.data(), bias, residual, out.data.data());
  return out;
}

HostTensor run_dense(const graph::Graph& graph, NodeId id, NodeInputs in) {
  const DenseDesc desc = dense_desc(graph, id);
  HostTensor out(graph.value(graph.node(id).output).type.shape);
  dense(desc, in[0]->data.data(), in[1]->data.data(), desc.epilogue.bias ? data_or_null(in, 2) : nullptr, nullptr,
        out.data.data());
  return out;
}

// Batch norm, then the activation fused into it (graph::BatchNorm::activation).
HostTensor run_batch_norm(const graph::BatchNorm& bn, NodeInputs in) {
  const auto param = [&](size_t i) { return in[i]->data.data(); };
  HostTensor out = batch_norm(*in[0], param(1), param(2), param(3), param(4), bn.epsilon);
  const Activation activation = lower_activation(bn.activation);
  for (float& value : out.data) value = static_cast<float>(apply_activation(activation, value));
  return out;
}

}  // namespace

HostTensor run_node(const graph::Graph& graph, NodeId id, std::span<const HostTensor* const> inputs) {
  const graph::Node& node = graph.node(id);
  if (inputs.size() != node.inputs.size())
    throw KernelError("node '" + node.name + "' takes " + std::to_string(node.inputs.size()) + " inputs, got " +
                      std::to_string(inputs.size()));
  const graph::Shape& out_shape = graph.value(node.output).type.shape;
  auto in = [&](size_t i) -> const HostTensor& { return *inputs[i]; };
  return std::visit(
      graph::Overloaded{
          [&](const graph::Conv2d&) { return run_conv(graph, id, inputs); },
          [&](const graph::Dense&) { return run_dense(graph, id, inputs); },
          [&](const graph::BatchNorm& bn) { return run_batch_norm(bn, inputs); },
          [&](const graph::Relu&) { return unary(UnaryOp::relu, in(0)); },
          [&](const graph::Sigmoid&) { return unary(UnaryOp::sigmoid, in(0)); },
          [&](const graph::Clip& c) { return clip(in(0), c.min, c.max); },
          [&](const graph::Add&) { return binary(BinaryOp::add, in(0), in(1)); },
          [&](const graph::Mul&) { return binary(BinaryOp::mul, in(0), in(1)); },
          [&](const graph::Concat& c) { return concat(std::vector<const HostTensor*>(inputs.begin(), inputs.end()), c.axis); },
          [&](const graph::Pool2d&) { return pool2d(in(0), pool2d_desc(graph, id, 1)); },
          [&](const graph::GlobalAvgPool&) { return global_avg_pool(in(0)); },
          [&](const graph::Transpose& t) { return transpose(in(0), t.perm); },
          [&](const graph::Softmax& s) { return softmax(in(0), s.axis); },
          [&](const graph::Pad& p) { return pad2d(in(0), p.pads.top, p.pads.left, p.pads.bottom, p.pads.right, p.value); },
          [&](const graph::Tanh&) { return unary(UnaryOp::tanh, in(0)); },
          [&](const graph::HardSigmoid& h) { return hard_sigmoid(in(0), h.alpha, h.beta); },
          [&](const graph::HardSwish&) { return unary(UnaryOp::hard_swish, in(0)); },
          [&](const graph::Silu&) { return unary(UnaryOp::silu, in(0)); },
          [&](const graph::Gelu& g) {
            return unary(g.form == graph::GeluForm::exact ? UnaryOp::gelu : UnaryOp::gelu_tanh, in(0));
          },
          [&](const graph::BatchMatMul&) { return batch_matmul(in(0), in(1), out_shape); },
          [&](const graph::LayerNorm& l) {
            return layer_norm(in(0), l.axis, in(1).data.data(), in(2).data.data(), l.epsilon);
          },
          [&](const graph::LeakyRelu& l) { return leaky_relu(in(0), l.alpha); },
          [&](const graph::PRelu&) { return binary(BinaryOp::prelu, in(0), in(1)); },
          [&](const graph::Sub&) { return binary(BinaryOp::sub, in(0), in(1)); },
          [&](const graph::Div&) { return binary(BinaryOp::div, in(0), in(1)); },
          [&](const graph::Max&) { return binary(BinaryOp::max, in(0), in(1)); },
          [&](const graph::Min&) { return binary(BinaryOp::min, in(0), in(1)); },
          [&](const graph::ReduceMean& r) { return reduce_mean(in(0), r.axes, r.keep_dims); },
          [&](const graph::ConvTranspose2d& c) { return conv_transpose2d(in(0), in(1), c.bias ? &in(2) : nullptr, c); },
          [&](const graph::Lrn& l) { return lrn(in(0), l); },
          [&](const graph::Resize& r) { return resize(in(0), r); },
          [&](const graph::Slice& s) { return slice(in(0), s.axis, s.start, s.end, s.step); },
          [&](const graph::ChannelShuffle& c) { return channel_shuffle(in(0), c.groups); },
          // The same numbers in the output's shape. Listed one by one, not as a catch-all, so
          // that a new operator fails to compile here instead of silently running as a copy.
          [&](const graph::Flatten&) { return reshape(in(0), out_shape); },
          [&](const graph::Reshape&) { return reshape(in(0), out_shape); },
          [&](const graph::Dropout&) { return reshape(in(0), out_shape); },
          [&](const graph::Identity&) { return reshape(in(0), out_shape); },
      },
      node.op);
}

std::vector<HostTensor> run_graph(const graph::Graph& graph, const std::vector<HostTensor>& inputs) {
  if (inputs.size() != graph.inputs().size())
    throw KernelError("graph '" + graph.name() + "' takes " + std::to_string(graph.inputs().size()) + " inputs, got " +
                      std::to_string(inputs.size()));
  Environment env(graph);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const graph::Value& value = graph.value(graph.inputs()[i]);
    if (inputs[i].shape != value.type.shape)
      throw KernelError("input '" + value.name + "' must have shape " + graph::to_string(value.type.shape) +
                        ", got " + graph::to_string(inputs[i].shape));
    env[graph.inputs()[i]] = inputs[i];
  }
  for (NodeId id : graph::topological_order(graph)) {
    std::vector<const HostTensor*> node_inputs;
    for (ValueId input : graph.node(id).inputs) node_inputs.push_back(&env[input]);
    env[graph.node(id).output] = run_node(graph, id, node_inputs);
  }
  std::vector<HostTensor> outputs;
  for (ValueId id : graph.outputs()) outputs.push_back(env[id]);
  return outputs;
}

}  // namespace layoutopt::kernels::reference
