#include "layoutopt/evaluation/compute_limit.h"

#include <cassert>
#include <iomanip>
#include <optional>
#include <sstream>
#include <utility>
#include <variant>

#include "layoutopt/graph/workloads.h"
#include "layoutopt/kernels/lowering.h"
#include "layoutopt/kernels/tunable_op.h"

namespace layoutopt::evaluation {

namespace {

constexpr double kFlopsPerGflop = 1e9;

/// The Winograd config `kernel` runs, or null for any other kernel.
const planning::TunedKernel* winograd_config(const planning::KernelChoice& kernel) {
  const auto* tuned = std::get_if<planning::TunedKernel>(&kernel);
  const bool winograd = tuned != nullptr && tuned->family == kernels::to_string(kernels::OpFamily::winograd_conv2d);
  return winograd ? tuned : nullptr;
}

ComputeLimit at_peak(const timing::PeakFlops& peak) {
  return {.peak_gflops = peak.gflops, .threads = peak.threads};
}

/// A Winograd kernel a node runs: its op and config.
struct WinogradRun {
  kernels::TunableOp op;
  int64_t config_index = 0;
};

/// The Winograd kernel node `id` runs as `plan` runs it (null: as the untuned default runs
/// it), or nothing where it runs directly.
std::optional<WinogradRun> winograd_run(const graph::Graph& graph, const planning::Plan* plan, graph::NodeId id) {
  if (plan) {
    const planning::TunedKernel* tuned = winograd_config(plan->nodes.at(static_cast<size_t>(id)).kernel);
    if (tuned == nullptr) return std::nullopt;
    return WinogradRun{kernels::TunableOp::winograd_conv2d(kernels::conv2d_desc(graph, id)), tuned->config_index};
  }
  if (!std::holds_alternative<graph::Conv2d>(graph.node(id).op)) return std::nullopt;
  kernels::TunableOp op = kernels::TunableOp::conv2d_default_algorithm(kernels::conv2d_desc(graph, id));
  if (op.family() != kernels::OpFamily::winograd_conv2d) return std::nullopt;
  const int64_t index = op.default_index();
  return WinogradRun{std::move(op), index};
}

double flops_of(const graph::Graph& graph, graph::NodeId id, const std::optional<WinogradRun>& winograd) {
  if (winograd) return winograd->op.executed_flops(winograd->config_index);
  return 2.0 * static_cast<double>(graph::mac_count(graph, graph.node(id)));
}

}  // namespace

double ComputeLimit::limit_ms() const { return peak_gflops > 0 ? 1e3 * executed_gflop / peak_gflops : 0.0; }

double ComputeLimit::fraction_of(double run_ms) const { return run_ms > 0 ? limit_ms() / run_ms : 0.0; }

std::string ComputeLimit::summary() const {
  std::ostringstream out;
  out << std::fixed << std::setprecision(2) << executed_gflop << " GFLOP";
  if (winograd_convs > 0)
    out << " as run (" << direct_gflop << " direct; Winograd on " << winograd_convs << " of the convs)";
  else
    out << " (direct)";
  out << std::setprecision(0) << " at " << peak_gflops << " GFLOPS, the measured FMA peak on " << threads
      << " threads: at least " << std::setprecision(3) << limit_ms() << " ms";
  return out.str();
}

double executed_flops(const graph::Graph& graph, const planning::Plan* plan, graph::NodeId id) {
  return flops_of(graph, id, winograd_run(graph, plan, id));
}

std::optional<int64_t> winograd_weight_floats(const graph::Graph& graph, const planning::Plan* plan,
                                              graph::NodeId id) {
  const std::optional<WinogradRun> winograd = winograd_run(graph, plan, id);
  if (!winograd) return std::nullopt;
  return winograd->op.buffer_sizes(winograd->config_index).weight;
}

ComputeLimit compute_limit(const graph::Graph& graph, const planning::Plan* plan, const timing::PeakFlops& peak) {
  assert((plan == nullptr || plan->nodes.size() == graph.nodes().size()) && "validate_plan: one plan node per graph node");
  ComputeLimit limit = at_peak(peak);
  limit.direct_gflop = 2.0 * static_cast<double>(graph::mac_count(graph)) / kFlopsPerGflop;
  double executed = 0;
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    const auto id = static_cast<graph::NodeId>(n);
    const std::optional<WinogradRun> winograd = winograd_run(graph, plan, id);
    executed += flops_of(graph, id, winograd);
    if (winograd) ++limit.winograd_convs;
  }
  limit.executed_gflop = executed / kFlopsPerGflop;
  return limit;
}

}  // namespace layoutopt::evaluation
