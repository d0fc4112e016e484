#include "network/node_lowering.h"

#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <utility>
#include <variant>
#include <vector>

#include "layoutopt/graph/input_roles.h"
#include "layoutopt/graph/overloaded.h"
#include "layoutopt/kernels/activation.h"
#include "layoutopt/kernels/batch_norm.h"
#include "layoutopt/kernels/channel_shuffle.h"
#include "layoutopt/kernels/channel_slice.h"
#include "layoutopt/kernels/concat.h"
#include "layoutopt/kernels/elementwise_binary.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/flatten.h"
#include "layoutopt/kernels/global_avg_pool.h"
#include "layoutopt/kernels/layer_norm.h"
#include "layoutopt/kernels/lowering.h"
#include "layoutopt/kernels/parallel_compile.h"
#include "layoutopt/kernels/pool2d.h"
#include "layoutopt/kernels/reference/graph_executor.h"
#include "layoutopt/kernels/resize.h"
#include "layoutopt/kernels/softmax.h"
#include "layoutopt/kernels/tunable_op.h"
#include "layoutopt/layout/transform.h"
#include "network/checked_size.h"
#include "reference/broadcast_index.h"
#include "network/lower_products.h"
#include "network/lower_slice.h"
#include "network/lower_whole_axis.h"

namespace layoutopt::kernels::network {

namespace {

using graph::Graph;
using graph::NodeId;
using layout::Layout;
using layout::in_canonical_order;
using runtime::Operand;

/// Everything the lowering of one node needs to know.
struct NodeContext {
  const Graph& graph;
  NodeId id;
  const graph::Node& node;
  const NodeSchedule& schedule;
  const NodeOperands& operands;
  WeightImage& weights;
  FunctionTable& functions;

  [[nodiscard]] std::string where() const { return "node '" + node.name + "' (" + graph::op_name(node.op) + ")"; }
  [[nodiscard]] const graph::Shape& shape_of(graph::ValueId value) const { return graph.value(value).type.shape; }
  [[nodiscard]] const graph::Shape& output_shape() const { return shape_of(node.output); }
  [[nodiscard]] std::span<const float> parameter(size_t input) const {
    return graph.value(node.inputs.at(input)).weights->values();
  }
  [[nodiscard]] SlotId read(size_t i) const { return operands.reads.at(i); }
  [[nodiscard]] SlotId write() const { return operands.write; }
};

/// Reference evaluation on canonical copies, for operators and layouts without a kernel.
LoweredNode fallback(const NodeContext& c);

[[noreturn]] void fail(const NodeContext& c, const std::string& what) {
  throw KernelError(c.where() + ": " + what);
}

/// Throws unless `scheduled` stores `shape` exactly as the kernel's `required` layout does.
void require_layout(const NodeContext& c, const std::string& operand, const graph::Shape& shape,
                    const Layout& scheduled, const Layout& required) {
  if (!layout::same_memory_order(shape, scheduled, required))
    fail(c, "the schedule stores its " + operand + " " + graph::to_string(shape) + " in " + scheduled.str() +
                ", but its kernel needs " + required.str());
}

Operand constant(const NodeContext& c, std::span<const float> values) { return Operand::constant(c.weights.add(values)); }

Operand parameter_constant(const NodeContext& c, size_t input) { return constant(c, c.parameter(input)); }

/// A constant operand numpy-broadcast to the node's output shape (Swin's attention bias and
/// window mask against [windows, heads, tokens, tokens]): expanded once into the constant
/// pool in the output's scheduled layout, so the kernel reads it like a same-shaped operand
/// streamed with the output.
Operand broadcast_parameter_constant(const NodeContext& c, size_t input) {
  const graph::Shape& shape = c.shape_of(c.node.inputs[input]);
  const graph::Shape& out = c.output_shape();
  const std::span<const float> values = c.parameter(input);
  std::vector<float> expanded(static_cast<size_t>(graph::element_count(out)));
  for (size_t i = 0; i < expanded.size(); ++i)
    expanded[i] = values[static_cast<size_t>(reference::broadcast_index(shape, out, static_cast<int64_t>(i)))];
  if (in_canonical_order(out, c.schedule.output)) return constant(c, expanded);
  return constant(c, layout::LayoutTransform::for_activation(out, layout::canonical_data_layout(out.size()),
                                                             c.schedule.output)
                         .apply(expanded));
}

/// The kernel as data, its functions recorded in the network's table.
runtime::KernelSpec kernel_spec(const NodeContext& c, const Kernel& kernel) {
  runtime::KernelSpec spec{kernel.name(), {}, kernel.scratch_floats(), kernel.units()};
  for (const KernelStage& stage : kernel.stages()) {
    const CompiledFunction& f = *stage.compiled;
    c.functions.emplace(f.name, stage.compiled);
    spec.stages.push_back({f.name, stage.operands, f.work_items, stage.whole_each_unit, f.needs_weight, f.needs_bias,
                           f.needs_residual, f.needs_scale});
  }
  return spec;
}

/// Read `index` of the node as an operand, or none for -1.
Operand read_operand(const NodeContext& c, int index) {
  return index >= 0 ? Operand::slot(c.read(static_cast<size_t>(index))) : Operand::none();
}

/// Which of a node's scheduled reads a kernel takes besides its input (read 0); -1 for none.
struct ExtraReads {
  int residual = -1;
  int scale = -1;
};

/// A kernel reading the first scheduled input, and the `extra` reads as residual and input
/// scale, with constant weight and bias.
LoweredNode kernel_step(const NodeContext& c, const Kernel& kernel, Operand weight, Operand bias,
                        ExtraReads extra = {}) {
  runtime::KernelStep step{.kernel = kernel_spec(c, kernel),
                           .input = read_operand(c, 0),
                           .weight = weight,
                           .bias = bias,
                           .residual = read_operand(c, extra.residual),
                           .scale = read_operand(c, extra.scale),
                           .output = c.write()};
  // A kernel that keeps partial sums in its output would overwrite a residual it shares
  // memory with before adding it.
  const bool partial_sums = std::ranges::any_of(
      kernel.stages(), [](const KernelStage& stage) { return stage.compiled->output_holds_partial_sums; });
  return {kernel.name(), std::move(step), partial_sums ? -1 : extra.residual, 0, kernel.compile_ms()};
}

/// Checks each activation input's scheduled layout against what a tuned kernel with
/// `layouts` needs for its role (graph::tuned_input_layouts); returns where the residual and
/// the input scale are among the reads.
ExtraReads check_tuned_reads(const NodeContext& c, const OpLayouts& layouts) {
  const std::vector<graph::ValueId> activations = graph::activation_inputs(c.graph, c.id);
  const std::vector<graph::InputRole> roles = graph::activation_input_roles(c.graph, c.id);
  const std::vector<Layout> required = graph::tuned_input_layouts(c.graph, c.id, layouts.input, layouts.output);
  ExtraReads extra;
  for (size_t i = 0; i < activations.size(); ++i) {
    require_layout(c, graph::to_string(roles[i]), c.shape_of(activations[i]), c.schedule.inputs.at(i), required[i]);
    if (roles[i] == graph::InputRole::residual) extra.residual = static_cast<int>(i);
    if (roles[i] == graph::InputRole::scale) extra.scale = static_cast<int>(i);
  }
  return extra;
}

/// The bias operand of a tuned node: its biases, then a conv's prologue scales and shifts
/// (Conv2dDesc::prologue); none when it has neither.
Operand tuned_bias(const NodeContext& c, const Epilogue& epilogue) {
  const auto* conv = std::get_if<graph::Conv2d>(&c.node.op);
  if (conv == nullptr || !conv->prologue) return epilogue.bias ? parameter_constant(c, 2) : Operand::none();
  return constant(c, conv2d_bias_operand(c.graph, c.id));
}

/// conv2d and dense: the tuned kernel with weights packed once for the schedule (re-laid,
/// and for Winograd transformed).
LoweredNode lower_tunable(const NodeContext& c, const TunableOp& op, int64_t index, const Epilogue& epilogue) {
  const OpLayouts layouts = op.layouts(index);
  const ExtraReads extra = check_tuned_reads(c, layouts);
  require_layout(c, "output", c.output_shape(), c.schedule.output, layouts.output);
  const Operand weight = constant(c, op.pack_weights(index, c.parameter(1)));
  const Operand bias = tuned_bias(c, epilogue);
  return kernel_step(c, op.compile(index), weight, bias, extra);
}

/// The first of `algorithms` whose schedule space holds `knobs`, and that point.
std::optional<std::pair<const TunableOp*, int64_t>> schedule_point(const std::vector<TunableOp>& algorithms,
                                                                   const std::map<std::string, int64_t>& knobs) {
  for (const TunableOp& op : algorithms)
    if (const std::optional<int64_t> index = op.index_of(knobs)) return std::make_pair(&op, *index);
  return std::nullopt;
}

/// What a tuned node (conv or dense) may run: its algorithms, the fused epilogue they share.
struct TunedNode {
  std::vector<TunableOp> algorithms;  ///< none for a node that is not tuned
  Epilogue epilogue;
};

TunedNode tuned_node(const Graph& graph, NodeId id) {
  const graph::Node& node = graph.node(id);
  if (std::holds_alternative<graph::Conv2d>(node.op)) {
    const Conv2dDesc desc = conv2d_desc(graph, id);
    return {TunableOp::conv2d_algorithms(desc), desc.epilogue};
  }
  if (std::holds_alternative<graph::Dense>(node.op)) {
    const DenseDesc desc = dense_desc(graph, id);
    return {{TunableOp::dense(desc)}, desc.epilogue};
  }
  return {};
}

LoweredNode lower_tuned(const NodeContext& c) {
  const TunedNode tuned = tuned_node(c.graph, c.id);
  const std::vector<TunableOp>& algorithms = tuned.algorithms;
  if (const auto point = schedule_point(algorithms, c.schedule.knobs))
    return lower_tunable(c, *point->first, point->second, tuned.epilogue);
  std::string spaces;
  for (const TunableOp& op : algorithms) spaces += "\n" + std::string(to_string(op.family())) + ":\n" + op.space().str();
  fail(c, "knobs {" + knob_text(c.schedule.knobs) + "} are not a point of its schedule space" +
              (algorithms.size() > 1 ? "s" : "") + ":" + spaces);
}

/// The channel block of a layout-flexible node: its output's, which every input must share.
int64_t common_block(const NodeContext& c) {
  const int64_t block = c.schedule.output.block_of('C');
  const Layout blocked = Layout::nchwc(block);
  require_layout(c, "output", c.output_shape(), c.schedule.output, blocked);
  const std::vector<graph::ValueId> activations = graph::activation_inputs(c.graph, c.id);
  for (size_t i = 0; i < activations.size(); ++i)
    require_layout(c, "input " + std::to_string(i), c.shape_of(activations[i]), c.schedule.inputs.at(i), blocked);
  return block;
}

LoweredNode plain_kernel(const NodeContext& c, const Kernel& kernel) {
  return kernel_step(c, kernel, Operand::none(), Operand::none());
}

LoweredNode lower_pool(const NodeContext& c) {
  const Pool2dDesc desc = pool2d_desc(c.graph, c.id, common_block(c));
  return plain_kernel(c, compile_pool2d(desc, pool2d_default_schedule(desc)));
}

LoweredNode lower_global_pool(const NodeContext& c) {
  return plain_kernel(c, compile_global_avg_pool(tensor_desc(c.graph, c.node.inputs[0], common_block(c))));
}

LoweredNode lower_batch_norm(const NodeContext& c, const graph::BatchNorm& bn) {
  const BatchNormDesc desc = batch_norm_desc(c.graph, c.id, common_block(c));
  BatchNormCoefficients folded = fold_batch_norm(c.parameter(1), c.parameter(2), c.parameter(3), c.parameter(4), bn.epsilon);
  return kernel_step(c, compile_batch_norm(desc, {}), constant(c, folded.scale), constant(c, folded.shift));
}

/// True when every activation input is stored in the output's memory order: an elementwise
/// kernel then streams all of them as flat arrays, whatever their rank and layout.
bool shares_output_order(const NodeContext& c) {
  const std::vector<graph::ValueId> activations = graph::activation_inputs(c.graph, c.id);
  for (size_t i = 0; i < activations.size(); ++i)
    if (c.shape_of(activations[i]) != c.output_shape() ||
        !layout::same_memory_order(c.output_shape(), c.schedule.inputs.at(i), c.schedule.output))
      return false;
  return true;
}

/// 4-D tensors in NCHW[x]c; other ranks as one flat stream when input and output share their
/// memory order.
LoweredNode lower_activation(const NodeContext& c) {
  if (c.output_shape().size() == 4)
    return plain_kernel(c, compile_activation(activation_desc(c.graph, c.id, common_block(c)), {}));
  if (!shares_output_order(c)) return fallback(c);
  return plain_kernel(c, compile_activation(activation_desc(c.graph, c.id, flat_tensor_desc(c.graph, c.node.output)), {}));
}

/// The kernel's [outer][C][inner] view of a tensor whose layout keeps the normalized axis
/// whole (one physical axis): inner is that axis's memory step, outer the rest. Swin's token
/// tensors [1, 56, 56, 96] in NCHW8c normalize over W = 96 as outer 7 * 56, inner 8.
std::optional<LayerNormDesc> unsplit_axis_layer_norm_desc(const NodeContext& c, size_t axis) {
  const graph::Shape& shape = c.output_shape();
  const Layout& scheduled = c.schedule.output;
  if (!layout::same_memory_order(shape, c.schedule.inputs.at(0), scheduled)) return std::nullopt;
  const std::optional<WholeAxisView> view = whole_axis_view(shape, scheduled, axis);
  if (!view) return std::nullopt;
  LayerNormDesc desc = layer_norm_desc(c.graph, c.id, 1);
  desc.outer = view->outer;
  desc.inner = view->inner;
  return desc;
}

/// Over the normalized axis: the channels of a 4-D tensor in NCHW[x]c, or any axis that the
/// tensor's layout (shared by input and output) keeps whole; split axes fall back.
LoweredNode lower_layer_norm(const NodeContext& c, const graph::LayerNorm& norm) {
  const graph::Shape& shape = c.output_shape();
  std::optional<LayerNormDesc> desc;
  if (shape.size() == 4 && norm.axis == 1)
    desc = layer_norm_desc(c.graph, c.id, common_block(c));
  else if (in_canonical_order(shape, c.schedule.inputs.at(0)) && in_canonical_order(shape, c.schedule.output))
    desc = layer_norm_desc(c.graph, c.id, 1);
  else
    desc = unsplit_axis_layer_norm_desc(c, static_cast<size_t>(norm.axis));
  if (!desc) return fallback(c);
  return kernel_step(c, compile_layer_norm(*desc), parameter_constant(c, 1), parameter_constant(c, 2));
}

LoweredNode lower_channel_shuffle(const NodeContext& c, const graph::ChannelShuffle& shuffle) {
  const ChannelShuffleDesc desc{tensor_desc(c.graph, c.node.output, common_block(c)), shuffle.groups};
  return plain_kernel(c, compile_channel_shuffle(desc));
}

LoweredNode lower_resize(const NodeContext& c, const graph::Resize& resize) {
  const ResizeDesc desc{tensor_desc(c.graph, c.node.inputs[0], common_block(c)), resize};
  return plain_kernel(c, compile_resize(desc));
}

/// Rows of a 2-D tensor in NC[x]c; over the last axis of a tensor of any rank in canonical
/// order, as rows of its last extent (last_axis_softmax_desc). Other axes and layouts fall back.
LoweredNode lower_softmax(const NodeContext& c) {
  const graph::Shape& shape = c.output_shape();
  std::optional<SoftmaxDesc> desc = last_axis_softmax_desc(c.graph, c.id);
  if (!desc) return fallback(c);
  if (shape.size() == 2) {
    desc->block = c.schedule.output.block_of('C');
    const SoftmaxLayouts layouts = softmax_layouts(*desc);
    require_layout(c, "input", shape, c.schedule.inputs.at(0), layouts.input);
    require_layout(c, "output", shape, c.schedule.output, layouts.output);
    return plain_kernel(c, compile_softmax(*desc));
  }
  if (!in_canonical_order(shape, c.schedule.inputs.at(0)) || !in_canonical_order(shape, c.schedule.output))
    return fallback(c);
  return plain_kernel(c, compile_softmax(*desc));
}

/// The copy kernels of `desc` as one concat step.
LoweredNode concat_step(const NodeContext& c, const ConcatDesc& desc) {
  desc.validate();
  const std::vector<Kernel> kernels = compile_concat(desc);
  runtime::ConcatStep step{{}, c.operands.reads, c.write(), concat_slice_offsets(desc)};
  double compile_ms = 0;
  for (const Kernel& kernel : kernels) {
    compile_ms += kernel.compile_ms();
    step.kernels.push_back(kernel_spec(c, kernel));
  }
  std::vector<int64_t> offsets = step.slice_offsets;
  return {kernels.front().name() + " x" + std::to_string(kernels.size()), std::move(step), -1, 0, compile_ms,
          std::move(offsets)};
}

LoweredNode lower_channel_concat(const NodeContext& c) {
  ConcatDesc desc{.inputs = {}, .out_block = c.schedule.output.block_of('C')};
  require_layout(c, "output", c.output_shape(), c.schedule.output, Layout::nchwc(desc.out_block));
  for (size_t i = 0; i < c.node.inputs.size(); ++i) {
    const Layout& scheduled = c.schedule.inputs.at(i);
    desc.inputs.push_back(tensor_desc(c.graph, c.node.inputs[i], scheduled.block_of('C')));
    require_layout(c, "input " + std::to_string(i), c.shape_of(c.node.inputs[i]), scheduled,
                   Layout::nchwc(desc.inputs.back().block));
  }
  return concat_step(c, desc);
}

/// A concat along any axis of tensors in canonical order, or in one layout shared by all that
/// keeps the axis whole (Swin's cyclic shift along W of NCHW8c tokens), is, per index of
/// the memory before that axis, a run of each input's floats after the other: the channel
/// concat of [outer, row_i / g, 1, g] NCHW tensors, with row_i an input's floats per outer
/// index and g the inputs' common run length (the gcd of the row_i) so that each copy moves
/// g floats, not one.
std::optional<LoweredNode> lower_plain_concat(const NodeContext& c, int64_t axis) {
  const graph::Shape& out = c.output_shape();
  const auto rank = static_cast<int64_t>(out.size());
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank || rank < 2 || rank > 4) return std::nullopt;
  // Partial products: a zero extent elsewhere lets them pass int64 while the shape's count does not.
  const auto product = [&](auto begin, auto end) {
    return std::accumulate(begin, end, int64_t{1},
                           [&](int64_t a, int64_t b) { return checked_mul(a, b, "concat '" + c.node.name + "' extents"); });
  };
  const auto a = static_cast<size_t>(axis);
  const auto view_of = [&](const graph::Shape& shape, const Layout& layout) -> std::optional<WholeAxisView> {
    if (in_canonical_order(shape, layout))
      return WholeAxisView{product(shape.begin(), shape.begin() + axis), shape[a], product(shape.begin() + axis + 1, shape.end())};
    if (layout != c.schedule.output) return std::nullopt;
    return whole_axis_view(shape, layout, a);
  };
  const std::optional<WholeAxisView> out_view = view_of(out, c.schedule.output);
  if (!out_view) return std::nullopt;
  std::vector<int64_t> rows;
  for (size_t i = 0; i < c.node.inputs.size(); ++i) {
    const std::optional<WholeAxisView> view = view_of(c.shape_of(c.node.inputs[i]), c.schedule.inputs.at(i));
    if (!view || view->outer != out_view->outer || view->inner != out_view->inner) return std::nullopt;
    rows.push_back(view->extent * view->inner);
    if (rows.back() == 0) return std::nullopt;  // an empty input: no copy kernel takes it
  }
  if (rows.empty()) return std::nullopt;
  const int64_t run = std::accumulate(rows.begin(), rows.end(), int64_t{0}, [](int64_t x, int64_t y) { return std::gcd(x, y); });
  ConcatDesc desc{.inputs = {}, .out_block = 1};
  for (const int64_t row : rows)
    desc.inputs.push_back({.batch = out_view->outer, .channels = row / run, .height = 1, .width = run, .block = 1});
  return concat_step(c, desc);
}

/// Reference evaluation on canonical copies, for operators without a blocked kernel.
LoweredNode fallback(const NodeContext& c) {
  const Graph& graph = c.graph;
  const NodeId id = c.id;
  // Per node input: a parameter's values (fixed), or a transform from the scheduled layout.
  auto parameters = std::make_shared<std::vector<reference::HostTensor>>(c.node.inputs.size());
  std::vector<bool> is_parameter(c.node.inputs.size(), false);
  std::vector<layout::LayoutTransform> to_canonical;
  int64_t bytes = 0;
  for (size_t i = 0; i < c.node.inputs.size(); ++i) {
    const graph::Value& value = graph.value(c.node.inputs[i]);
    if (value.kind == graph::ValueKind::parameter) {
      is_parameter[i] = true;
      const std::span<const float> values = value.weights->values();
      (*parameters)[i].shape = value.type.shape;
      (*parameters)[i].data.assign(values.begin(), values.end());
      bytes += static_cast<int64_t>(values.size() * sizeof(float));
    }
  }
  for (size_t i = 0; i < c.operands.reads.size(); ++i) {
    const graph::Shape& shape = c.shape_of(graph::activation_inputs(graph, id)[i]);
    to_canonical.push_back(layout::LayoutTransform::for_activation(
        shape, c.schedule.inputs.at(i), layout::canonical_data_layout(shape.size())));
  }
  const layout::LayoutTransform from_canonical = layout::LayoutTransform::for_activation(
      c.output_shape(), layout::canonical_data_layout(c.output_shape().size()), c.schedule.output);
  const std::vector<SlotId> reads = c.operands.reads;
  const SlotId out = c.write();
  LoweredNode lowered{"reference " + graph::op_name(c.node.op), runtime::ReferenceStep{graph::op_name(c.node.op), reads, out},
                      -1, bytes};
  lowered.reference_body = [&graph, id, parameters, is_parameter, to_canonical, from_canonical, reads, out](const SlotAddresses& a,
                                                                                              Team /*always own*/) {
    std::vector<reference::HostTensor> activations(reads.size());
    std::vector<const reference::HostTensor*> inputs;
    size_t next = 0;
    for (size_t i = 0; i < parameters->size(); ++i) {
      if (is_parameter[i]) {
        inputs.push_back(&(*parameters)[i]);
        continue;
      }
      reference::HostTensor& tensor = activations[next];
      tensor = reference::HostTensor(to_canonical[next].logical_shape());
      to_canonical[next].run(a[reads[next]], tensor.data.data());
      inputs.push_back(&tensor);
      ++next;
    }
    const reference::HostTensor result = reference::run_node(graph, id, inputs);
    from_canonical.run(result.data.data(), a[out]);
  };
  return lowered;
}

LoweredNode view() { return {"view", std::nullopt}; }

/// Flatten and reshape keep their data where the input's memory already is the output.
LoweredNode lower_reshape_like(const NodeContext& c) {
  const graph::Shape& in = c.shape_of(c.node.inputs[0]);
  const Layout& in_layout = c.schedule.inputs.at(0);
  const bool plain_in = in_canonical_order(in, in_layout);
  const graph::Shape& out = c.output_shape();
  const bool plain_out = in_canonical_order(out, c.schedule.output);
  if (plain_in && plain_out) return view();
  if (in == out && layout::same_memory_order(in, in_layout, c.schedule.output)) return view();  // identity, dropout
  // flatten of NCHW[x]c with H = W = 1 is NC[x]c
  const bool flatten = std::holds_alternative<graph::Flatten>(c.node.op);
  if (flatten && in.size() == 4 && in[2] == 1 && in[3] == 1 && c.output_shape().size() == 2 &&
      in_layout.block_of('C') == c.schedule.output.block_of('C'))
    return view();
  return fallback(c);
}

/// A transpose whose output is in canonical order is a layout change of its input into
/// transposed_layout(perm): the runtime's transform step, no reference code, so ahead-of-time
/// artifacts hold it. Other output layouts, and ranks canonical_data_layout does not know
/// (1 and above 6), fall back.
LoweredNode lower_transpose(const NodeContext& c, const graph::Transpose& transpose) {
  const graph::Shape& in = c.shape_of(c.node.inputs[0]);
  const graph::Shape& out = c.output_shape();
  if (in.size() < 2 || in.size() > 6 || transpose.perm.size() != in.size()) return fallback(c);
  if (!in_canonical_order(out, c.schedule.output)) return fallback(c);
  const Layout& from = c.schedule.inputs.at(0);
  const Layout to = layout::transposed_layout(transpose.perm);
  if (layout::same_memory_order(in, from, to)) return view();  // only axes of extent 1 move
  return {from.str() + "->" + to.str() + " (transpose)", runtime::TransformStep{in, from, to, c.read(0), c.write()}};
}

/// A per-channel constant as the plain [C] vector the kernel reads (a single value repeated).
std::vector<float> channel_vector(std::span<const float> values, int64_t channels) {
  if (values.size() == 1) return std::vector<float>(static_cast<size_t>(channels), values[0]);
  return {values.begin(), values.end()};
}

/// The per-channel operand goes in as the kernel's weight: a constant in the pool, or an
/// N x C x 1 x 1 activation's slot.
LoweredNode lower_per_channel_binary(const NodeContext& c, const ElementwiseBinaryDesc& desc) {
  const Kernel kernel = compile_elementwise_binary(desc, {});
  const size_t other = desc.other_first ? 0 : 1;  // the node input of the per-channel operand
  if (c.graph.value(c.node.inputs[other]).kind == graph::ValueKind::parameter) {
    return kernel_step(c, kernel, constant(c, channel_vector(c.parameter(other), desc.tensor.channels)), Operand::none());
  }
  runtime::KernelStep step{.kernel = kernel_spec(c, kernel),
                           .input = Operand::slot(c.read(1 - other)),
                           .weight = Operand::slot(c.read(other)),
                           .output = c.write()};
  return {kernel.name(), std::move(step), -1, 0, kernel.compile_ms()};
}

/// Same-shaped operands, or a full-shaped activation and a per-channel operand on either side
/// (binary_desc), have kernels on 4-D tensors; on any rank, same-shaped operands in one
/// memory order, scalar constants, and constants broadcast to the output in canonical order
/// (flat_binary_desc). Other broadcasts fall back.
LoweredNode lower_binary(const NodeContext& c) {
  std::optional<ElementwiseBinaryDesc> desc;
  if (c.output_shape().size() == 4) desc = binary_desc(c.graph, c.id, common_block(c));
  // Other ranks, and 4-D operands the blocked kernel does not take (a broadcast constant),
  // as one flat stream when they share the output's memory order.
  if (!desc && shares_output_order(c)) desc = flat_binary_desc(c.graph, c.id);
  if (!desc) return fallback(c);
  if (desc->other != BinaryOperand::same_shape) return lower_per_channel_binary(c, *desc);
  const Kernel kernel = compile_elementwise_binary(*desc, {});
  const size_t other = desc->other_first ? 0 : 1;  // the node input of the second operand
  if (c.graph.value(c.node.inputs[other]).kind != graph::ValueKind::parameter)
    return kernel_step(c, kernel, Operand::none(), Operand::none(), {.residual = 1});
  // A constant is the residual operand at full shape, read from the pool (never written over)
  // in the output's layout, which the stream shares.
  runtime::KernelStep step{.kernel = kernel_spec(c, kernel),
                           .input = Operand::slot(c.read(0)),
                           .residual = broadcast_parameter_constant(c, other),
                           .output = c.write()};
  return {kernel.name(), std::move(step), -1, 0, kernel.compile_ms()};
}

/// Channel concats of 4-D tensors run blocked; concats of tensors in canonical order along
/// any axis run as plain copies; the rest, and concats with a constant part (ViT's class
/// token), fall back.
LoweredNode lower_concat(const NodeContext& c, const graph::Concat& concat) {
  if (c.operands.reads.size() != c.node.inputs.size()) return fallback(c);
  if (c.output_shape().size() == 4 && (concat.axis == 1 || concat.axis == -3)) return lower_channel_concat(c);
  if (std::optional<LoweredNode> plain = lower_plain_concat(c, concat.axis)) return std::move(*plain);
  return fallback(c);
}

/// A slice that is one contiguous run of its input is a view of it (channel_slice_view_offset);
/// others copy.
LoweredNode slice_step(const NodeContext& c, const ChannelSliceDesc& desc) {
  if (const std::optional<int64_t> offset = channel_slice_view_offset(desc))
    return {.detail = "view", .action = std::nullopt, .view_offset = *offset};
  return plain_kernel(c, compile_channel_slice(desc));
}

/// A step-1 slice along any axis of a tensor in canonical order (plain_slice_desc).
std::optional<LoweredNode> lower_plain_slice(const NodeContext& c) {
  if (!in_canonical_order(c.shape_of(c.node.inputs[0]), c.schedule.inputs.at(0)) ||
      !in_canonical_order(c.output_shape(), c.schedule.output))
    return std::nullopt;
  const std::optional<ChannelSliceDesc> desc = plain_slice_desc(c.graph, c.id);
  if (!desc) return std::nullopt;
  return slice_step(c, *desc);
}

/// A step-1 channel slice of a blocked 4-D tensor has a kernel when the block divides its
/// start and length (the copy then moves whole blocks); so has a step-1 slice along any axis
/// in canonical order, and a slice with step 1, or a step dividing the extent, along an axis
/// that the layout both sides share keeps whole (layout_slice_desc). Each is a view where it
/// keeps one run of its input (slice_step). Other slices fall back.
LoweredNode lower_slice_or_fallback(const NodeContext& c, const graph::Slice& slice) {
  if (std::optional<LoweredNode> plain = lower_plain_slice(c)) return std::move(*plain);
  if (c.schedule.inputs.at(0) == c.schedule.output)
    if (const std::optional<ChannelSliceDesc> desc = layout_slice_desc(c.graph, c.id, c.schedule.output))
      return slice_step(c, *desc);
  const bool channels = c.output_shape().size() == 4 && (slice.axis == 1 || slice.axis == -3) && slice.step == 1;
  if (!channels) return fallback(c);
  const int64_t block = c.schedule.output.block_of('C');
  if (slice.start % block != 0 || (slice.end - slice.start) % block != 0) return fallback(c);
  const ChannelSliceDesc desc{tensor_desc(c.graph, c.node.inputs[0], common_block(c)), slice.start, slice.end};
  return slice_step(c, desc);
}

/// The blocked kernels of layout-flexible operators work on 4-D tensors; other ranks fall back.
template <typename Lower>
LoweredNode lower_4d(const NodeContext& c, Lower lower) {
  return c.output_shape().size() == 4 ? lower() : fallback(c);
}

LoweredNode lower_op(const NodeContext& c) {
  // The elementwise operators are told apart by lowering.h's mapping, the one list of them.
  if (has_activation_kernel(c.node.op)) return lower_activation(c);
  if (binary_op(c.node.op)) return lower_binary(c);
  return std::visit(
      graph::Overloaded{
          [&](const graph::Conv2d&) { return lower_tuned(c); },
          [&](const graph::Dense&) { return lower_tuned(c); },
          [&](const graph::Pool2d&) { return lower_4d(c, [&] { return lower_pool(c); }); },
          [&](const graph::GlobalAvgPool&) { return lower_4d(c, [&] { return lower_global_pool(c); }); },
          [&](const graph::BatchNorm& bn) { return lower_4d(c, [&] { return lower_batch_norm(c, bn); }); },
          [&](const graph::Concat& concat) { return lower_concat(c, concat); },
          [&](const graph::ChannelShuffle& s) { return lower_4d(c, [&] { return lower_channel_shuffle(c, s); }); },
          [&](const graph::Slice& slice) { return lower_slice_or_fallback(c, slice); },
          [&](const graph::Resize& r) { return lower_4d(c, [&] { return lower_resize(c, r); }); },
          [&](const graph::Softmax&) { return lower_softmax(c); },
          [&](const graph::LayerNorm& norm) { return lower_layer_norm(c, norm); },
          [&](const graph::Flatten&) { return lower_reshape_like(c); },
          [&](const graph::Reshape&) { return lower_reshape_like(c); },
          [&](const graph::Dropout&) { return lower_reshape_like(c); },
          [&](const graph::Identity&) { return lower_reshape_like(c); },
          [&](const graph::Transpose& t) { return lower_transpose(c, t); },
          [&](const graph::BatchMatMul&) {
            const std::optional<Kernel> kernel = batch_matmul_kernel(c.graph, c.id, c.schedule);
            return kernel ? kernel_step(c, *kernel, Operand::slot(c.read(1)), Operand::none()) : fallback(c);
          },
          [&](const auto&) { return fallback(c); },
      },
      c.node.op);
}

}  // namespace

LoweredNode lower_node(const Graph& graph, NodeId id, const NodeSchedule& schedule, const NodeOperands& operands,
                       WeightImage& weights, FunctionTable& functions) {
  const graph::Node& node = graph.node(id);
  const NodeContext c{graph, id, node, schedule, operands, weights, functions};
  try {
    return lower_op(c);
  } catch (const layout::LayoutError& e) {
    fail(c, e.what());
  } catch (const KernelError& e) {
    const std::string what = e.what();
    if (what.rfind(c.where(), 0) == 0) throw;
    fail(c, what);
  }
}

void compile_tuned_kernels(const Graph& graph, const NetworkSchedule& schedule, int threads) {
  parallel_compile(graph.nodes().size(), threads, [&](size_t id) {
    try {  // a node that is not tuned has no algorithms, hence no point
      const TunedNode node = tuned_node(graph, static_cast<NodeId>(id));
      if (const auto point = schedule_point(node.algorithms, schedule.nodes.at(id).knobs))
        static_cast<void>(point->first->compile(point->second));
    } catch (...) {  // the node's lowering reports what does not fit, naming the node
    }
  });
}

}  // namespace layoutopt::kernels::network
