#include "layoutopt/evaluation/roofline.h"

#include <algorithm>
#include <cassert>
#include <iomanip>
#include <map>
#include <optional>
#include <sstream>

#include "layoutopt/evaluation/compute_limit.h"
#include "layoutopt/graph/ops.h"

namespace layoutopt::evaluation {

namespace {

/// Operators the compiler runs as views of their input, or (concat) whose inputs it writes
/// straight into the output: the least they can cost is nothing.
bool may_move_no_data(graph::OpKind kind) {
  using graph::OpKind;
  return kind == OpKind::flatten || kind == OpKind::reshape || kind == OpKind::identity || kind == OpKind::dropout ||
         kind == OpKind::concat;
}

double element_bytes(graph::DType dtype) { return dtype == graph::DType::i64 ? 8.0 : 4.0; }

double value_bytes(const graph::Graph& graph, graph::ValueId id) {
  const graph::TensorType& type = graph.value(id).type;
  return static_cast<double>(graph::element_count(type.shape)) * element_bytes(type.dtype);
}

/// Weights and input activations read, the output written; a conv run as Winograd reads its
/// transformed weights instead of the graph's (its second input).
double moved_bytes(const graph::Graph& graph, const planning::Plan* plan, graph::NodeId id) {
  const graph::Node& node = graph.node(id);
  double bytes = value_bytes(graph, node.output);
  for (graph::ValueId input : node.inputs) bytes += value_bytes(graph, input);
  if (const std::optional<int64_t> transformed = winograd_weight_floats(graph, plan, id))
    bytes += static_cast<double>(*transformed) * sizeof(float) - value_bytes(graph, node.inputs.at(1));
  return bytes;
}

/// ms to do `amount` at `rate` per second, both in the same SI multiple (GFLOP at GFLOPS).
double ms_at(double amount, double rate) { return rate > 0 ? 1e3 * amount / rate : 0.0; }

/// The operator's name; depthwise convs apart from the others, as they are bound by memory
/// where other convs are bound by FMAs.
std::string operator_type(const graph::Graph& graph, const graph::Node& node) {
  if (const auto* conv = std::get_if<graph::Conv2d>(&node.op);
      conv != nullptr && graph::is_depthwise(*conv, graph.value(node.inputs.front()).type.shape[1]))
    return "depthwise_conv2d";
  return std::string(graph::to_string(graph::op_kind(node.op)));
}

}  // namespace

double StepFloor::floor_ms() const { return std::max(compute_ms, memory_ms); }

double Roofline::floor_ms() const {
  double total = 0;
  for (const StepFloor& step : steps) total += step.floor_ms();
  return total;
}

double Roofline::memory_bound_ms() const {
  double total = 0;
  for (const StepFloor& step : steps) total += step.memory_bound() ? step.floor_ms() : 0.0;
  return total;
}

double Roofline::fraction_of(double run_ms) const { return run_ms > 0 ? floor_ms() / run_ms : 0.0; }

std::vector<StepTypeFloor> Roofline::types(const std::map<graph::NodeId, double>& measured_ms_by_node) const {
  std::map<std::string, StepTypeFloor> by_type;
  for (const StepFloor& step : steps) {
    StepTypeFloor& type = by_type[step.type];
    type.type = step.type;
    ++type.steps;
    type.floor_ms += step.floor_ms();
    type.memory_bound_ms += step.memory_bound() ? step.floor_ms() : 0.0;
    if (const auto measured = measured_ms_by_node.find(step.node); measured != measured_ms_by_node.end())
      type.measured_ms += measured->second;
  }
  std::vector<StepTypeFloor> types;
  for (const auto& entry : by_type) types.push_back(entry.second);
  std::stable_sort(types.begin(), types.end(),
                   [](const StepTypeFloor& a, const StepTypeFloor& b) { return a.floor_ms > b.floor_ms; });
  return types;
}

std::vector<StepLoss> Roofline::largest_losses(const std::map<graph::NodeId, double>& measured_ms_by_node,
                                              size_t count) const {
  std::vector<StepLoss> losses;
  for (const StepFloor& step : steps)
    if (const auto measured = measured_ms_by_node.find(step.node); measured != measured_ms_by_node.end())
      losses.push_back({step, measured->second});
  std::stable_sort(losses.begin(), losses.end(),
                   [](const StepLoss& a, const StepLoss& b) { return a.lost_ms() > b.lost_ms(); });
  if (losses.size() > count) losses.resize(count);
  return losses;
}

std::string Roofline::summary() const {
  std::ostringstream out;
  out << std::fixed << std::setprecision(3) << "at least " << floor_ms() << " ms, each step at the FMA peak ("
      << std::setprecision(0) << peak_gflops << " GFLOPS) or the read bandwidth (" << std::setprecision(1)
      << bandwidth_gbps << " GB/s) on " << threads << " threads, whichever binds; " << std::setprecision(3)
      << memory_bound_ms() << " ms of it memory-bound";
  return out.str();
}

Roofline roofline(const graph::Graph& graph, const planning::Plan* plan, const timing::PeakFlops& peak,
                  const timing::MemoryBandwidth& bandwidth) {
  assert((!plan || plan->nodes.size() == graph.nodes().size()) && "validate_plan: one plan node per graph node");
  Roofline result{.peak_gflops = peak.gflops, .bandwidth_gbps = bandwidth.read_gbps, .threads = peak.threads};
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    const auto id = static_cast<graph::NodeId>(n);
    const graph::Node& node = graph.node(id);
    const graph::OpKind kind = graph::op_kind(node.op);
    if (may_move_no_data(kind)) continue;
    result.steps.push_back({.node = id,
                            .type = operator_type(graph, node),
                            .compute_ms = ms_at(executed_flops(graph, plan, id) / 1e9, peak.gflops),
                            .memory_ms = ms_at(moved_bytes(graph, plan, id) / 1e9, bandwidth.read_gbps)});
  }
  return result;
}

}  // namespace layoutopt::evaluation
