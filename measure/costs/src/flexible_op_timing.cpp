#include "layoutopt/costs/flexible_op_timing.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "layoutopt/graph/tensor_type.h"
#include "layoutopt/kernels/activation.h"
#include "layoutopt/kernels/batch_norm.h"
#include "layoutopt/kernels/channel_shuffle.h"
#include "layoutopt/kernels/channel_slice.h"
#include "layoutopt/kernels/concat.h"
#include "layoutopt/kernels/elementwise_binary.h"
#include "layoutopt/kernels/global_avg_pool.h"
#include "layoutopt/kernels/lowering.h"
#include "layoutopt/tuning/activation_placement.h"
#include "layoutopt/timing/cost_policy.h"
#include "layoutopt/tuning/timed_operands.h"
#include "layoutopt/costs/transform_enumeration.h"

namespace layoutopt::costs {

namespace {

using Kernels = std::vector<kernels::Kernel>;

using Knobs = std::map<std::string, int64_t>;

/// A flexible node lowered for one block: what it runs (the cache key and the plan's kernel
/// choice) and how to compile it.
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

BlockedOp channel_slice(const graph::Graph& graph, const graph::Node& node, int64_t block) {
  const auto& slice = std::get<graph::Slice>(node.op);
  const kernels::ChannelSliceDesc desc{kernels::tensor_desc(graph, node.inputs[0], block), slice.start, slice.end};
  return blocked_op("channel_slice", desc.str(), Knobs{}, "",
                    [=] { return Kernels{kernels::compile_channel_slice(desc)}; });
}

// Only the inputs a compiled network cannot place in their slice of the output are copied
// (see concat_slice_offsets: at batch 1 their producers write there directly), so only
// those are timed; a batch-1 concat in one block costs its step and nothing more.
BlockedOp concat(const graph::Graph& graph, const graph::Node& node, int64_t block) {
  kernels::ConcatDesc desc{.inputs = {}, .out_block = block};
  for (graph::ValueId input : node.inputs) desc.inputs.push_back(kernels::tensor_desc(graph, input, block));
  const std::vector<int64_t> offsets = kernels::concat_slice_offsets(desc);
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
        else if constexpr (std::is_same_v<Op, graph::BatchNorm>) return batch_norm(graph, id, block);
        else if constexpr (std::is_same_v<Op, graph::Clip>) return clip(graph, node, block);
        else if constexpr (std::is_same_v<Op, graph::Pad>) return stand_in(graph, node, block, "pad");
        else throw std::logic_error("node '" + node.name + "' (" + graph::op_name(node.op) + ") is not layout-flexible");
      },
      node.op);
}

/// One buffer size for every operand: the largest tensor the node touches. Kernels read only
/// what their layout needs, so the slack costs memory, not time.
size_t operand_floats(const graph::Graph& graph, const graph::Node& node) {
  int64_t floats = graph::element_count(graph.value(node.output).type.shape);
  for (graph::ValueId input : node.inputs) floats = std::max(floats, graph::element_count(graph.value(input).type.shape));
  return static_cast<size_t>(floats);
}

/// Where activation input `i` of the node lies in a timed operand: its whole tensor in the
/// blocked layout's planes of rows; nothing (and so not placed) when the node has no such
/// input or the block does not divide its channels. Constants are not activations: a network
/// does not leave them in cache.
tuning::ActivationExtent input_extent(const graph::Graph& graph, graph::NodeId id, size_t i, int64_t block) {
  const std::vector<graph::ValueId> inputs = graph::activation_inputs(graph, id);
  if (i >= inputs.size()) return {};
  const graph::Shape& shape = graph.value(inputs[i]).type.shape;
  if (shape.size() < 2 || shape[1] % block != 0) return {};
  const layout::Layout blocked = layout::Layout::parse(blocked_layout(shape.size(), block));
  return {graph::element_count(shape), tuning::row_plane_floats(shape, blocked)};
}

double time_kernels(const Kernels& kernels, const graph::Graph& graph, graph::NodeId id, int64_t block,
                    const timing::TimingPolicy& policy) {
  const graph::Node& node = graph.node(id);
  // Nothing to run (a concat whose inputs all sit in place): no time to measure, and timing
  // an empty body to the policy's minimum would take hundreds of thousands of flushes.
  if (kernels.empty()) return 0.0;
  const auto count = static_cast<int64_t>(operand_floats(graph, node));
  tuning::KernelOperands operands({count, count, count, count, count});
  const kernels::KernelArgs args = operands.args();
  // The first input is the kernels' input; a binary op's second is their residual operand.
  const tuning::ActivationExtent input = input_extent(graph, id, 0, block), second = input_extent(graph, id, 1, block);
  // Concat is one copy kernel per input, run one after another as an executor would.
  return timing::time_cost(
             policy, [&] {
               for (const kernels::Kernel& kernel : kernels) kernel(args);
             },
             [&] { operands.place_activations(input, second); })
      .ms.median;
}

std::string label_of(const graph::Node& node, int64_t block, const BlockedOp& op) {
  std::string label = blocked_layout(4, block) + " " + graph::op_name(node.op);
  if (!op.schedule_text.empty()) label += " " + op.schedule_text;
  if (!op.kernel.stand_in_for.empty()) label += " (stand-in: " + op.kernel.kernel + " timed)";
  return label;
}

}  // namespace

bool FlexibleOpTimer::handles(const graph::Graph& graph, graph::NodeId id) {
  const graph::Node& node = graph.node(id);
  if (graph.value(node.output).type.shape.size() != 4) return false;
  if (kernels::has_activation_kernel(node.op) || kernels::binary_op(node.op)) return true;
  return std::visit(
      [](const auto& op) {
        using Op = std::decay_t<decltype(op)>;
        if constexpr (std::is_same_v<Op, graph::Concat>) return op.axis == 1 || op.axis == -3;
        if constexpr (std::is_same_v<Op, graph::Slice>) return (op.axis == 1 || op.axis == -3) && op.step == 1;
        return std::is_same_v<Op, graph::Pool2d> || std::is_same_v<Op, graph::GlobalAvgPool> ||
               std::is_same_v<Op, graph::BatchNorm> || std::is_same_v<Op, graph::Clip> ||
               std::is_same_v<Op, graph::Pad> || std::is_same_v<Op, graph::ChannelShuffle>;
      },
      node.op);
}

FlexibleOpCost FlexibleOpTimer::cost(const graph::Graph& graph, graph::NodeId id, int64_t block) const {
  const graph::Node& node = graph.node(id);
  const BlockedOp op = lower(graph, id, block);
  // Held while timing too: concurrent timings would disturb each other anyway.
  std::lock_guard lock(mutex_);
  if (auto it = cache_.find(op.kernel); it != cache_.end()) return it->second;
  FlexibleOpCost cost{time_kernels(op.compile(), graph, id, block, policy_), label_of(node, block, op), op.kernel};
  cache_.emplace(op.kernel, cost);
  return cost;
}

}  // namespace layoutopt::costs
