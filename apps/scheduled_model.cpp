#include "scheduled_model.h"

#include <sstream>

#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/kernels/network/default_schedule.h"
#include "layoutopt/planning/plan.h"
#include "layoutopt/planning/plan_schedule.h"

namespace layoutopt::apps {

void add_plan_option(CLI::App& command, std::string& plan_path) {
  command.add_option("--plan", plan_path, "plan file (from `layoutopt plan` or `optimize`); default: the default schedule");
}

std::string step_key(const std::string& name, bool transform, const std::string& to_layout) {
  return transform ? name + "->" + to_layout : name;
}

ScheduledModel load_scheduled_model(const ModelArgument& model, const std::string& plan_path) {
  ScheduledModel scheduled{load_and_warn(model.spec, model.options), {}, "default schedule (untuned, 16/8 channel blocks)", 0};
  (void)graph::prepare_for_inference(scheduled.model.graph);
  if (plan_path.empty()) {
    scheduled.schedule = kernels::default_network_schedule(scheduled.model.graph);
    return scheduled;
  }
  const planning::Plan plan = planning::load_plan(plan_path);
  scheduled.schedule = planning::network_schedule(plan, scheduled.model.graph);
  scheduled.predicted_ms = plan.predicted_ms;
  for (const planning::PlanNode& node : plan.nodes) scheduled.predicted_step_ms[step_key(node.name, false, "")] = node.ms;
  for (const planning::PlanTransform& t : plan.transforms) scheduled.predicted_step_ms[step_key(t.value, true, t.to.str())] = t.ms;
  std::ostringstream source;
  source << plan_path << " (" << planning::to_string(plan.solver) << ", " << planning::to_string(plan.costs)
         << " costs, predicted " << plan.predicted_ms << " ms)";
  scheduled.schedule_source = source.str();
  scheduled.plan = plan;
  return scheduled;
}

}  // namespace layoutopt::apps
