#include "layoutopt/pipeline/load_schedule.h"

#include <sstream>

#include "layoutopt/kernels/network/default_schedule.h"
#include "layoutopt/planning/plan_schedule.h"

namespace layoutopt::pipeline {

LoadedSchedule load_schedule(const graph::Graph& graph, const std::filesystem::path& plan_path) {
  if (plan_path.empty())
    return {kernels::default_network_schedule(graph), "default schedule (untuned, by rule from each shape)", std::nullopt};
  planning::Plan plan = planning::load_plan(plan_path);
  kernels::NetworkSchedule schedule = planning::network_schedule(plan, graph);
  std::ostringstream source;
  source << plan_path.string() << " (" << planning::to_string(plan.solver) << ", " << planning::to_string(plan.costs)
         << " costs, predicted " << plan.predicted_ms << " ms)";
  return {std::move(schedule), source.str(), std::move(plan)};
}

}  // namespace layoutopt::pipeline
