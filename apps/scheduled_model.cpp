#include "scheduled_model.h"

#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/pipeline/load_schedule.h"

namespace layoutopt::apps {

void add_plan_option(CLI::App& command, std::string& plan_path) {
  command.add_option("--plan", plan_path, "plan file (from `layoutopt plan` or `optimize`); default: the default schedule");
}

ScheduledModel load_scheduled_model(const ModelArgument& model, const std::string& plan_path) {
  ScheduledModel scheduled{load_and_warn(model.spec, model.options)};
  (void)graph::prepare_for_inference(scheduled.model.graph);
  pipeline::LoadedSchedule loaded = pipeline::load_schedule(scheduled.model.graph, plan_path);
  scheduled.schedule = std::move(loaded.schedule);
  scheduled.schedule_source = std::move(loaded.source);
  scheduled.plan = std::move(loaded.plan);
  scheduled.predicted_ms = scheduled.plan ? scheduled.plan->predicted_ms : 0;
  return scheduled;
}

}  // namespace layoutopt::apps
