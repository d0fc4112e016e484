#include "layoutopt/costs/flexible_ops.h"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <variant>

#include "layoutopt/kernels/activation.h"
#include "layoutopt/kernels/batch_norm.h"
#include "layoutopt/kernels/channel_shuffle.h"
#include "layoutopt/kernels/channel_slice.h"
#include "layoutopt/kernels/concat.h"
#include "layoutopt/kernels/elementwise_binary.h"
#include "layoutopt/kernels/global_avg_pool.h"
#include "layoutopt/kernels/layer_norm.h"
#include "layoutopt/kernels/lowering.h"
#include "layoutopt/kernels/resize.h"
#include "layoutopt/kernels/softmax.h"
#include "layoutopt/costs/offered_layouts.h"
#include "layoutopt/planning/flexible_blocks.h"

namespace layoutopt::costs {

namespace {

using Kernels = std::vector<kernels::Kernel>;

using Knobs = std::map<std::string, int64_t>;

/// A flexible node lowered for one block: what it runs (the timing table's key and the plan's
/// kernel choice) and how to compile it.
struct BlockedOp {
  planning::FlexibleKernel kernel;
  std::string schedule_text;
  std::function<Kernels()> compile;
};

BlockedOp blocked_op(const std::string& kernel, const std::string& desc, Knobs schedule, std::string schedule_text,
                     std::function<Kernels()> compile, const std::string& stand_in_for = {}) {
  return {{.kernel = kernel, .desc = desc, .schedule = std::move(schedule), .stand_in_for = stand_in_for},
          std::move(schedule_text),
          std::move(compile)};
}

BlockedOp activation(const kernels::ActivationDesc& desc, const std::string& stand_in_for = {}) {
  const kernels::ElementwiseSchedule schedule;
  return blocked_op("activation", desc.str(), {{"chunk", schedule.chunk}}, schedule.str(),
                    [=] { return Kernels{kernels::compile_activation(desc, schedule)}; }, stand_in_for);
}

/// A relu over the node's output: one read and one write of it, for operators without a
/// kernel of their own.
BlockedOp stand_in(const graph::Graph& graph, const graph::Node& node, int64_t block, const std::string& op) {
  return activation({kernels::tensor_desc(graph, node.output, block), kernels::ActivationOp::relu}, op);
}

// Clip to bounds other than [0, 6] is timed as relu6.
BlockedOp clip(const graph::Graph& graph, const graph::Node& node, int64_t block) {
  return activation({kernels::tensor_desc(graph, node.output, block), kernels::ActivationOp::relu6}, "clip");
}

// What the compiled network runs (kernels::binary_desc); any other broadcast streams the
// output once on a stand-in.
BlockedOp binary(const graph::Graph& graph, graph::NodeId id, int64_t block) {
  const std::optional<kernels::ElementwiseBinaryDesc> found = kernels::binary_desc(graph, id, block);
  if (!found) return stand_in(graph, graph.node(id), block, graph::op_name(graph.node(id).op));
  const kernels::ElementwiseBinaryDesc desc = *found;
  const kernels::ElementwiseSchedule schedule;
  return blocked_op("elementwise_binary", desc.str(), {{"chunk", schedule.chunk}}, schedule.str(),
                    [=] { return Kernels{kernels::compile_elementwise_binary(desc, schedule)}; });
}

BlockedOp batch_norm(const graph::Graph& graph, graph::NodeId id, int64_t block) {
  const kernels::BatchNormDesc desc = kernels::batch_norm_desc(graph, id, block);
  const kernels::ElementwiseSchedule schedule;
  return blocked_op("batch_norm", desc.str(), {{"chunk", schedule.chunk}}, schedule.str(),
                    [=] { return Kernels{kernels::compile_batch_norm(desc, schedule)}; });
}

BlockedOp layer_norm(const graph::Graph& graph, graph::NodeId id, int64_t block) {
  const kernels::LayerNormDesc desc = kernels::layer_norm_desc(graph, id, block);
  return blocked_op("layer_norm", desc.str(), Knobs{}, "", [=] { return Kernels{kernels::compile_layer_norm(desc)}; });
}

BlockedOp pool(const graph::Graph& graph, graph::NodeId id, int64_t block) {
  const kernels::Pool2dDesc desc = kernels::pool2d_desc(graph, id, block);
  const kernels::Pool2dSchedule schedule = kernels::pool2d_default_schedule(desc);
  return blocked_op("pool2d", desc.str(), {{"ow_bn", schedule.ow_bn}}, schedule.str(),
                    [=] { return Kernels{kernels::compile_pool2d(desc, schedule)}; });
}

BlockedOp global_pool(const graph::Graph& graph, const graph::Node& node, int64_t block) {
  const kernels::TensorDesc input = kernels::tensor_desc(graph, node.inputs[0], block);
  return blocked_op("global_avg_pool", input.str(), Knobs{}, "",
                    [=] { return Kernels{kernels::compile_global_avg_pool(input)}; });
}

BlockedOp channel_shuffle(const graph::Graph& graph, const graph::Node& node, int64_t block) {
  const kernels::ChannelShuffleDesc desc{kernels::tensor_desc(graph, node.output, block),
                                         std::get<graph::ChannelShuffle>(node.op).groups};
  return blocked_op("channel_shuffle", desc.str(), Knobs{}, "",
                    [=] { return Kernels{kernels::compile_channel_shuffle(desc)}; });
}

BlockedOp resize(const graph::Graph& graph, const graph::Node& node, int64_t block) {
  const kernels::ResizeDesc desc{kernels::tensor_desc(graph, node.inputs[0], block), std::get<graph::Resize>(node.op)};
  return blocked_op("resize", desc.str(), Knobs{}, "", [=] { return Kernels{kernels::compile_resize(desc)}; });
}

// A slice node's channels [start, end) of its input in NCHW[block]c.
kernels::ChannelSliceDesc slice_desc(const graph::Graph& graph, const graph::Node& node, int64_t block) {
  const auto& slice = std::get<graph::Slice>(node.op);
  return {kernels::tensor_desc(graph, node.inputs[0], block), slice.start, slice.end};
}

// A batch-1 slice is a view in a compiled network (channel_slice_view_offset): nothing to time.
BlockedOp channel_slice(const graph::Graph& graph, const graph::Node& node, int64_t block) {
  const kernels::ChannelSliceDesc desc = slice_desc(graph, node, block);
  if (kernels::channel_slice_view_offset(desc))
    return blocked_op("channel_slice", desc.str(), Knobs{}, "view", [] { return Kernels{}; });
  return blocked_op("channel_slice", desc.str(), Knobs{}, "",
                    [=] { return Kernels{kernels::compile_channel_slice(desc)}; });
}

// True when `value` is a view of another tensor in NCHW[block]c (a batch-1 channel slice):
// its memory belongs to that tensor. The compiled network moves that tensor into the concat
// only where the step order allows it (program_builder's placement_shift), which a graph
// alone does not tell, so the concat is priced copying the view; in-network calibration
// prices the concat as the network runs it.
bool view_in_block(const graph::Graph& graph, graph::ValueId value, int64_t block) {
  const graph::NodeId producer = graph.value(value).producer;
  if (producer == graph::kNoProducer) return false;
  const graph::Node& node = graph.node(producer);
  const auto* slice = std::get_if<graph::Slice>(&node.op);
  if (slice == nullptr || !is_layout_flexible(graph, producer) || slice->start % block != 0 ||
      (slice->end - slice->start) % block != 0)
    return false;
  return kernels::channel_slice_view_offset(slice_desc(graph, node, block)).has_value();
}

// Only the inputs a compiled network cannot place in their slice of the output are copied
// (see concat_slice_offsets: at batch 1 their producers write there directly; a view is
// another tensor's memory), so only those are timed; a batch-1 concat in one block of
// inputs its producers write costs its step and nothing more.
BlockedOp concat(const graph::Graph& graph, const graph::Node& node, int64_t block) {
  kernels::ConcatDesc desc{.inputs = {}, .out_block = block};
  for (graph::ValueId input : node.inputs) desc.inputs.push_back(kernels::tensor_desc(graph, input, block));
  std::vector<int64_t> offsets = kernels::concat_slice_offsets(desc);
  for (size_t i = 0; i < node.inputs.size(); ++i)
    if (view_in_block(graph, node.inputs[i], block)) offsets[i] = -1;
  const auto copies = std::count(offsets.begin(), offsets.end(), int64_t{-1});
  return blocked_op("concat", desc.str(), {{"copies", copies}}, "copies " + std::to_string(copies), [=] {
    const Kernels all = kernels::compile_concat(desc);
    Kernels copied;
    for (size_t i = 0; i < all.size(); ++i)
      if (offsets[i] < 0) copied.push_back(all[i]);
    return copied;
  });
}

// The elementwise operators are told apart by kernels/lowering.h's mapping, the one list of
// them; the rest are named here.
BlockedOp lower(const graph::Graph& graph, graph::NodeId id, int64_t block) {
  const graph::Node& node = graph.node(id);
  if (kernels::has_activation_kernel(node.op)) return activation(kernels::activation_desc(graph, id, block));
  if (kernels::binary_op(node.op)) return binary(graph, id, block);
  return std::visit(
      [&](const auto& op) -> BlockedOp {
        using Op = std::decay_t<decltype(op)>;
        if constexpr (std::is_same_v<Op, graph::Pool2d>) return pool(graph, id, block);
        else if constexpr (std::is_same_v<Op, graph::GlobalAvgPool>) return global_pool(graph, node, block);
        else if constexpr (std::is_same_v<Op, graph::Concat>) return concat(graph, node, block);
        else if constexpr (std::is_same_v<Op, graph::ChannelShuffle>) return channel_shuffle(graph, node, block);
        else if constexpr (std::is_same_v<Op, graph::Slice>) return channel_slice(graph, node, block);
        else if constexpr (std::is_same_v<Op, graph::Resize>) return resize(graph, node, block);
        else if constexpr (std::is_same_v<Op, graph::BatchNorm>) return batch_norm(graph, id, block);
        else if constexpr (std::is_same_v<Op, graph::LayerNorm>) return layer_norm(graph, id, block);
        else if constexpr (std::is_same_v<Op, graph::Clip>) return clip(graph, node, block);
        else if constexpr (std::is_same_v<Op, graph::Pad>) return stand_in(graph, node, block, "pad");
        else throw std::logic_error("node '" + node.name + "' (" + graph::op_name(node.op) + ") is not layout-flexible");
      },
      node.op);
}

/// A canonical-order kernel as a timed op: labelled by its layout, no schedule.
FlexibleOp canonical_kernel(const graph::Graph& graph, graph::NodeId id, const std::string& kernel,
                            const std::string& desc, std::function<Kernels()> compile) {
  const graph::Node& node = graph.node(id);
  const std::string label =
      layout::canonical_data_layout(graph.value(node.output).type.shape.size()).str() + " " + graph::op_name(node.op);
  return {{.kernel = kernel, .desc = desc, .schedule = {}, .stand_in_for = {}}, label, std::move(compile)};
}

/// An elementwise node on flat operands sharing the output's shape (kernels::flat_binary_desc,
/// the activations of any rank).
std::optional<FlexibleOp> flat_elementwise(const graph::Graph& graph, graph::NodeId id) {
  const graph::Node& node = graph.node(id);
  const kernels::ElementwiseSchedule schedule;
  if (kernels::has_activation_kernel(node.op)) {
    const kernels::ActivationDesc desc = kernels::activation_desc(graph, id, kernels::flat_tensor_desc(graph, node.output));
    return canonical_kernel(graph, id, "activation", desc.str(),
                            [=] { return Kernels{kernels::compile_activation(desc, schedule)}; });
  }
  if (!kernels::binary_op(node.op)) return std::nullopt;
  const std::optional<kernels::ElementwiseBinaryDesc> desc = kernels::flat_binary_desc(graph, id);
  if (!desc) return std::nullopt;
  const kernels::ElementwiseBinaryDesc found = *desc;
  return canonical_kernel(graph, id, "elementwise_binary", found.str(),
                          [=] { return Kernels{kernels::compile_elementwise_binary(found, schedule)}; });
}

std::string label_of(const graph::Node& node, int64_t block, const BlockedOp& op) {
  std::string label = layout::Layout::channel_blocked(4, block).str() + " " + graph::op_name(node.op);
  if (!op.schedule_text.empty()) label += " " + op.schedule_text;
  if (!op.kernel.stand_in_for.empty()) label += " (stand-in: " + op.kernel.kernel + " timed)";
  return label;
}

/// Blocks dividing the channels of every activation tensor of the node: the divisors of their
/// greatest common divisor. Tuned convs use blocks such as 24 or 40, so powers of two are not
/// enough; the offered layouts decide which of these are used.
std::vector<int64_t> common_blocks(const graph::Graph& graph, graph::NodeId id) {
  const int64_t channels = planning::flexible_channel_bound(graph, id);
  std::vector<int64_t> blocks;
  for (int64_t block = 1; block <= channels; ++block)
    if (channels % block == 0) blocks.push_back(block);
  return blocks;
}

/// The node's output and activation inputs in NCHW[block]c, nothing else filled in.
planning::NodeCandidate blocked_layouts(const graph::Graph& graph, graph::NodeId id, int64_t block) {
  const graph::Shape& out = graph.value(graph.node(id).output).type.shape;
  planning::NodeCandidate candidate{.output = layout::Layout::channel_blocked(out.size(), block)};
  for (graph::ValueId input : graph::activation_inputs(graph, id))
    candidate.inputs.push_back(layout::Layout::channel_blocked(graph.value(input).type.shape.size(), block));
  return candidate;
}

bool all_offered(const graph::Graph& graph, graph::NodeId id, const planning::NodeCandidate& layouts,
                 const ShapeLayouts& offered) {
  if (!offers(offered, graph.value(graph.node(id).output).type.shape, layouts.output)) return false;
  const std::vector<graph::ValueId> inputs = graph::activation_inputs(graph, id);
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!offers(offered, graph.value(inputs[i]).type.shape, layouts.inputs[i])) return false;
  return true;
}

}  // namespace

bool is_layout_flexible(const graph::Graph& graph, graph::NodeId id) {
  const graph::Node& node = graph.node(id);
  if (graph.value(node.output).type.shape.size() != 4) return false;
  if (kernels::has_activation_kernel(node.op) || kernels::binary_op(node.op)) return true;
  return std::visit(
      [](const auto& op) {
        using Op = std::decay_t<decltype(op)>;
        if constexpr (std::is_same_v<Op, graph::Concat>) return op.axis == 1 || op.axis == -3;
        if constexpr (std::is_same_v<Op, graph::Slice>) return (op.axis == 1 || op.axis == -3) && op.step == 1;
        if constexpr (std::is_same_v<Op, graph::LayerNorm>) return op.axis == 1;
        return std::is_same_v<Op, graph::Pool2d> || std::is_same_v<Op, graph::GlobalAvgPool> ||
               std::is_same_v<Op, graph::BatchNorm> || std::is_same_v<Op, graph::Clip> ||
               std::is_same_v<Op, graph::Pad> || std::is_same_v<Op, graph::ChannelShuffle> ||
               std::is_same_v<Op, graph::Resize>;
      },
      node.op);
}

std::optional<FlexibleOp> canonical_op(const graph::Graph& graph, graph::NodeId id) {
  if (is_layout_flexible(graph, id)) return std::nullopt;
  if (std::optional<FlexibleOp> elementwise = flat_elementwise(graph, id)) return elementwise;
  return std::visit(
      [&](const auto& op) -> std::optional<FlexibleOp> {
        using Op = std::decay_t<decltype(op)>;
        if constexpr (std::is_same_v<Op, graph::LayerNorm>) {
          const kernels::LayerNormDesc desc = kernels::layer_norm_desc(graph, id, 1);
          return canonical_kernel(graph, id, "layer_norm", desc.str(), [=] { return Kernels{kernels::compile_layer_norm(desc)}; });
        } else if constexpr (std::is_same_v<Op, graph::Softmax>) {
          const std::optional<kernels::SoftmaxDesc> desc = kernels::last_axis_softmax_desc(graph, id);
          if (!desc) return std::nullopt;
          const kernels::SoftmaxDesc rows = *desc;
          return canonical_kernel(graph, id, "softmax", rows.str(), [=] { return Kernels{kernels::compile_softmax(rows)}; });
        } else if constexpr (std::is_same_v<Op, graph::Slice>) {
          const std::optional<kernels::ChannelSliceDesc> desc = kernels::plain_slice_desc(graph, id);
          if (!desc || kernels::channel_slice_view_offset(*desc)) return std::nullopt;  // a view
          const kernels::ChannelSliceDesc slice = *desc;
          return canonical_kernel(graph, id, "channel_slice", slice.str(),
                                  [=] { return Kernels{kernels::compile_channel_slice(slice)}; });
        } else {
          return std::nullopt;
        }
      },
      graph.node(id).op);
}

FlexibleOp flexible_op(const graph::Graph& graph, graph::NodeId id, int64_t block) {
  BlockedOp op = lower(graph, id, block);
  std::string label = label_of(graph.node(id), block, op);
  return {std::move(op.kernel), std::move(label), std::move(op.compile)};
}

std::vector<int64_t> offered_blocks(const graph::Graph& graph, graph::NodeId id, const ShapeLayouts& offered) {
  std::vector<int64_t> blocks;
  for (int64_t block : common_blocks(graph, id))
    if (all_offered(graph, id, blocked_layouts(graph, id, block), offered)) blocks.push_back(block);
  return blocks;
}

planning::NodeCandidate flexible_candidate(const graph::Graph& graph, graph::NodeId id, int64_t block) {
  planning::NodeCandidate candidate = blocked_layouts(graph, id, block);
  FlexibleOp op = flexible_op(graph, id, block);
  candidate.label = std::move(op.label);
  candidate.kernel = std::move(op.kernel);
  return candidate;
}

}  // namespace layoutopt::costs
