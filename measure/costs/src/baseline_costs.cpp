#include "layoutopt/costs/baseline_costs.h"

#include <algorithm>
#include <stdexcept>

#include "layoutopt/graph/input_roles.h"
#include "layoutopt/graph/workloads.h"
#include "layoutopt/planning/flexible_blocks.h"
#include "layoutopt/costs/measured_cost_source.h"

namespace layoutopt::costs {

namespace {

const planning::NodeCandidate& cheapest(const std::vector<planning::NodeCandidate>& candidates) {
  return *std::min_element(candidates.begin(), candidates.end(),
                           [](const planning::NodeCandidate& a, const planning::NodeCandidate& b) { return a.ms < b.ms; });
}

/// The block every tensor of a flexible node shares under the fixed heuristic.
int64_t fixed_block(const graph::Graph& graph, graph::NodeId id) {
  return kernels::default_channel_block(planning::flexible_channel_bound(graph, id));
}

}  // namespace

std::vector<planning::NodeCandidate> FastestKernelCosts::candidates(const graph::Graph& graph, graph::NodeId id) const {
  std::vector<planning::NodeCandidate> all = base_->candidates(graph, id);
  if (!graph::has_workload(graph.node(id)) || all.empty()) return all;
  return {cheapest(all)};
}

DefaultScheduleCosts::DefaultScheduleCosts(const planning::CostSource& base, const graph::Graph& graph,
                                           tuning::DefaultSeconds default_seconds)
    : RestrictedCosts(base),
      tasks_(tuning::extract_tasks(graph)),
      tasks_of_(tuning::tasks_by_node(tasks_)),
      default_seconds_(std::move(default_seconds)) {}

const tuning::TuningTask& DefaultScheduleCosts::default_task(graph::NodeId id) const {
  for (size_t t : tasks_of_.at(id))
    if (tuning::is_default_algorithm(tasks_[t].op)) return tasks_[t];
  throw std::logic_error("node " + std::to_string(id) + " has no task of the algorithm the default runs");
}

std::vector<planning::NodeCandidate> DefaultScheduleCosts::candidates(const graph::Graph& graph, graph::NodeId id) const {
  if (graph::has_workload(graph.node(id))) {
    const tuning::TuningTask& task = default_task(id);
    const auto seconds = default_seconds_.find(task.task_key());
    if (seconds == default_seconds_.end())
      throw std::runtime_error("node '" + graph.node(id).name + "': the default config of its task " + task.name +
                               " was not measured");
    const int64_t index = task.op.default_index();
    planning::NodeCandidate candidate = tuned_candidate(task, {index, seconds->second, task.op.layouts(index)});
    candidate.ms *= base_->node_price_factor(id);
    candidate.label = "default " + candidate.label;
    candidate.inputs = graph::tuned_input_layouts(graph, id, candidate.inputs[0], candidate.output);
    return {candidate};
  }
  std::vector<planning::NodeCandidate> all = base_->candidates(graph, id);
  if (all.size() <= 1 || graph.value(graph.node(id).output).type.shape.size() != 4) return all;
  const int64_t block = fixed_block(graph, id);
  for (const planning::NodeCandidate& candidate : all)
    if (candidate.output.block_of('C') == block) return {candidate};
  return {cheapest(all)};  // the heuristic's block is not offered for these tensors
}

}  // namespace layoutopt::costs
