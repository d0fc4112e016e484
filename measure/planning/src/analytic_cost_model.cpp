#include "layoutopt/planning/analytic_cost_model.h"

#include <algorithm>
#include <cmath>

#include "layoutopt/graph/input_roles.h"
#include "layoutopt/graph/workloads.h"
#include "layoutopt/graph/weight_init.h"
#include "layoutopt/kernels/knob_table.h"
#include "layoutopt/layout/transform.h"
#include "layoutopt/planning/flexible_blocks.h"

namespace layoutopt::planning {

namespace {

using layout::Layout;

namespace knobs = kernels::knobs;

/// "tile_ic=16": a modelled config's knob as the kernels' schedules spell it, for people.
std::string knob_label(const kernels::KnobDecl& knob, int64_t value) {
  return std::string(knob.name) + "=" + std::to_string(value);
}

int64_t bytes_of(const graph::Shape& shape) { return graph::element_count(shape) * int64_t{sizeof(float)}; }

/// How well a kernel's inner loop runs for a given input-channel block: tiny blocks mean
/// short reduction loops and more loop overhead per FMA.
double reduction_efficiency(int64_t ic_bn) {
  if (ic_bn >= 8) return 1.0;
  if (ic_bn >= 4) return 0.9;
  if (ic_bn >= 2) return 0.8;
  return 0.7;
}

template <class... Ops>
bool holds_any(const graph::Op& op) {
  return (std::holds_alternative<Ops>(op) || ...);
}

/// The operators the measured costs time in every block (costs::is_layout_flexible, which this
/// LLVM-free library cannot call; flexible_op_timing_test checks that the two agree).
bool is_flexible(const graph::Op& op) {
  if (const auto* concat = std::get_if<graph::Concat>(&op)) return concat->axis == 1 || concat->axis == -3;
  if (const auto* slice = std::get_if<graph::Slice>(&op))
    return (slice->axis == 1 || slice->axis == -3) && slice->step == 1;
  if (const auto* norm = std::get_if<graph::LayerNorm>(&op)) return norm->axis == 1;
  return holds_any<graph::BatchNorm, graph::Pool2d, graph::GlobalAvgPool, graph::Pad, graph::ChannelShuffle,
                   graph::Resize, graph::Relu, graph::Clip, graph::Sigmoid, graph::Tanh, graph::HardSigmoid, graph::HardSwish,
                   graph::Silu, graph::LeakyRelu, graph::Add, graph::Sub, graph::Mul, graph::Div, graph::Max,
                   graph::Min, graph::PRelu>(op);
}

}  // namespace

std::vector<int64_t> AnalyticCostModel::channel_blocks(int64_t channels) {
  std::vector<int64_t> blocks;
  for (int64_t block = 1; block <= 64; block *= 2)
    if (channels % block == 0) blocks.push_back(block);
  return blocks;
}

double AnalyticCostModel::vector_fill(int64_t block) const {
  const int64_t lanes = params_.vector_lanes;
  const int64_t vectors = (block + lanes - 1) / lanes;
  return static_cast<double>(block) / static_cast<double>(vectors * lanes);
}

double AnalyticCostModel::jitter(const std::string& key) const {
  return 1.0 + graph::uniform_at(graph::parameter_seed(17, key), 0, 0.0f, static_cast<float>(params_.jitter));
}

std::vector<NodeCandidate> AnalyticCostModel::candidates(const graph::Graph& graph, graph::NodeId id) const {
  const graph::Op& op = graph.node(id).op;
  if (std::holds_alternative<graph::Conv2d>(op)) return conv_candidates(graph, id);
  if (std::holds_alternative<graph::Dense>(op)) return dense_candidates(graph, id);
  if (is_flexible(op) && graph.value(graph.node(id).output).type.shape.size() == 4)
    return flexible_candidates(graph, id);
  return rigid_candidate(graph, id);
}

std::vector<NodeCandidate> AnalyticCostModel::conv_candidates(const graph::Graph& graph, graph::NodeId id) const {
  const graph::Node& node = graph.node(id);
  const auto& conv = std::get<graph::Conv2d>(node.op);
  const graph::Workload workload = graph::workload_of(graph, id);
  const int64_t in_channels = workload.input[1], out_channels = workload.output[1];
  const double flops = 2.0 * static_cast<double>(workload.macs);
  const bool depthwise = graph::is_depthwise(conv, in_channels);
  std::vector<NodeCandidate> result;
  for (int64_t ic : channel_blocks(in_channels / conv.groups))
    for (int64_t oc : channel_blocks(out_channels / conv.groups)) {
      // Depthwise kernels process one channel block end to end: input block = output block.
      if (depthwise && ic != oc) continue;
      if (depthwise) ic = oc = std::min(ic, oc);
      const std::string key = workload.signature() + "/" + std::to_string(ic) + "/" + std::to_string(oc);
      // Depthwise conv is bandwidth-bound; everything else is compute-bound.
      const double ms = depthwise ? 1e3 * static_cast<double>(bytes_of(workload.input) + bytes_of(workload.output)) /
                                        (params_.bandwidth_gbps * 1e9 * vector_fill(oc)) * jitter(key)
                                  : 1e3 * flops / (params_.peak_gflops * 1e9 * 0.8 * vector_fill(oc) *
                                                   reduction_efficiency(ic)) * jitter(key);
      NodeCandidate candidate{.output = Layout::channel_blocked(4, oc), .ms = ms,
                              .label = knob_label(knobs::conv2d::tile_ic, ic) + " " + knob_label(knobs::conv2d::tile_oc, oc)};
      candidate.inputs = graph::tuned_input_layouts(graph, id, Layout::channel_blocked(4, ic), candidate.output);
      result.push_back(std::move(candidate));
    }
  std::sort(result.begin(), result.end(), [](const auto& a, const auto& b) { return a.ms < b.ms; });
  if (result.size() > static_cast<size_t>(params_.max_conv_candidates)) result.resize(static_cast<size_t>(params_.max_conv_candidates));
  return result;
}

std::vector<NodeCandidate> AnalyticCostModel::dense_candidates(const graph::Graph& graph, graph::NodeId id) const {
  const graph::Workload workload = graph::workload_of(graph, id);
  // Dense at batch 1 streams its weights once: bandwidth-bound.
  const double weight_ms = 1e3 * static_cast<double>(bytes_of(workload.weight)) / (params_.bandwidth_gbps * 1e9);
  std::vector<NodeCandidate> result;
  for (int64_t in_bn : channel_blocks(workload.input[1]))
    for (int64_t out_bn : channel_blocks(workload.output[1])) {
      const std::string key = workload.signature() + "/" + std::to_string(in_bn) + "/" + std::to_string(out_bn);
      result.push_back({.inputs = {Layout::channel_blocked(2, in_bn)},
                        .output = Layout::channel_blocked(2, out_bn),
                        .ms = weight_ms / vector_fill(out_bn) * jitter(key),
                        .label = knob_label(knobs::dense::tile_in, in_bn) + " " + knob_label(knobs::dense::tile_out, out_bn)});
    }
  std::sort(result.begin(), result.end(), [](const auto& a, const auto& b) { return a.ms < b.ms; });
  if (result.size() > static_cast<size_t>(params_.max_conv_candidates)) result.resize(static_cast<size_t>(params_.max_conv_candidates));
  return result;
}

std::vector<NodeCandidate> AnalyticCostModel::flexible_candidates(const graph::Graph& graph, graph::NodeId id) const {
  const graph::Node& node = graph.node(id);
  const auto inputs = activation_inputs(graph, id);
  int64_t bytes = bytes_of(graph.value(node.output).type.shape);
  for (graph::ValueId input : inputs) bytes += bytes_of(graph.value(input).type.shape);
  const std::vector<int64_t> blocks = channel_blocks(flexible_channel_bound(graph, id));
  std::vector<NodeCandidate> result;
  for (int64_t block : blocks) {
    // Plain NCHW vectorizes along W only; blocked layouts vectorize along channels.
    const double efficiency = block == 1 ? 0.5 : vector_fill(block);
    NodeCandidate candidate{.output = Layout::channel_blocked(4, block),
                            .ms = 1e3 * static_cast<double>(bytes) / (params_.bandwidth_gbps * 1e9 * efficiency),
                            .label = Layout::channel_blocked(4, block).str()};
    candidate.inputs.assign(inputs.size(), candidate.output);
    result.push_back(std::move(candidate));
  }
  return result;
}

std::vector<NodeCandidate> AnalyticCostModel::rigid_candidate(const graph::Graph& graph, graph::NodeId id) const {
  const graph::Node& node = graph.node(id);
  const auto inputs = activation_inputs(graph, id);
  NodeCandidate candidate;
  int64_t bytes = bytes_of(graph.value(node.output).type.shape);
  for (graph::ValueId input : inputs) {
    candidate.inputs.push_back(layout::canonical_data_layout(graph.value(input).type.shape.size()));
    bytes += bytes_of(graph.value(input).type.shape);
  }
  candidate.output = layout::canonical_data_layout(graph.value(node.output).type.shape.size());
  candidate.ms = 1e3 * static_cast<double>(bytes) / (params_.bandwidth_gbps * 1e9 * 0.5);
  candidate.label = "canonical";
  return {candidate};
}

double AnalyticCostModel::transform_ms(const graph::Shape& shape, const Layout& from, const Layout& to) const {
  if (from == to) return 0.0;
  const auto key = std::make_tuple(shape, from.str(), to.str());
  {
    std::lock_guard lock(cache_mutex_);
    if (auto it = transform_cache_.find(key); it != transform_cache_.end()) return it->second;
  }
  const auto transform = layout::LayoutTransform::for_activation(shape, from, to);
  double ms = 0.0;
  if (transform.path() != layout::TransformPath::identity) {
    // Transposes (one side unblocked) stride through memory; block-to-block copies move runs.
    const double efficiency = transform.path() == layout::TransformPath::copy_runs ? 0.6 : 0.35;
    ms = 0.002 + 1e3 * static_cast<double>(transform.bytes_moved()) / (params_.bandwidth_gbps * 1e9 * efficiency);
  }
  std::lock_guard lock(cache_mutex_);
  transform_cache_.emplace(key, ms);
  return ms;
}

}  // namespace layoutopt::planning
