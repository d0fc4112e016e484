#include "scheduled_model.h"

#include "layoutopt/pipeline/load_schedule.h"

namespace layoutopt::apps {

void add_scheduled_model_arguments(CLI::App& command, ScheduledModelArgument& argument) {
  add_model_argument(command, argument.model);
  command.add_option("--plan", argument.plan,
                     "plan file (from `layoutopt plan` or `optimize`); default: the default schedule");
}

ScheduledModel load_scheduled_model(const ScheduledModelArgument& argument) {
  ScheduledModel scheduled{load_prepared_and_warn(argument.model)};
  pipeline::LoadedSchedule loaded = pipeline::load_schedule(scheduled.model.graph, argument.plan);
  scheduled.schedule = std::move(loaded.schedule);
  scheduled.schedule_source = std::move(loaded.source);
  scheduled.plan = std::move(loaded.plan);
  scheduled.predicted_ms = scheduled.plan ? scheduled.plan->predicted_ms : 0;
  return scheduled;
}

}  // namespace layoutopt::apps
