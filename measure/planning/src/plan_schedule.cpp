#include "layoutopt/planning/plan_schedule.h"

#include <variant>

#include "layoutopt/graph/workloads.h"

namespace layoutopt::planning {

namespace {

std::map<std::string, int64_t> tuned_knobs(const PlanNode& node, const std::string& model) {
  const auto* tuned = std::get_if<TunedKernel>(&node.kernel);
  if (tuned == nullptr)
    throw PlanError("node '" + node.name + "' (" + std::string(graph::to_string(node.op)) + ") of the plan for '" +
                    model + "' names no tuned kernel config (plans made with --model-costs cannot be compiled): plan with "
                    "measured costs");
  return tuned->knobs;
}

}  // namespace

kernels::NetworkSchedule network_schedule(const Plan& plan, const graph::Graph& graph) {
  validate_plan(plan, graph);
  kernels::NetworkSchedule schedule;
  for (size_t n = 0; n < plan.nodes.size(); ++n) {
    const PlanNode& planned = plan.nodes[n];
    kernels::NodeSchedule node;
    node.inputs = planned.inputs;
    node.output = planned.output;
    if (graph::has_workload(graph.node(static_cast<graph::NodeId>(n)))) node.knobs = tuned_knobs(planned, plan.model);
    schedule.nodes.push_back(std::move(node));
  }
  return schedule;
}

}  // namespace layoutopt::planning
