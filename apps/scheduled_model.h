#pragma once
// What `run` and `bench` execute: a model prepared for inference, with the schedule from a
// plan file (validated against the model, so a stale or foreign plan is refused) or, without
// one, the default schedule.

#include <map>
#include <optional>
#include <string>

#include "cli_common.h"
#include "layoutopt/kernels/network/network_schedule.h"
#include "layoutopt/planning/plan.h"
#include "model_loader.h"

namespace layoutopt::apps {

struct ScheduledModel {
  LoadedModel model;
  kernels::NetworkSchedule schedule;
  std::string schedule_source;  ///< "plan.json (graph tuned, dp, predicted 12.3 ms)" or "default schedule"
  double predicted_ms = 0;      ///< the plan's prediction; 0 without a plan
  /// The plan's predicted time of each step, by NetworkStep name + detail key (step_key).
  std::map<std::string, double> predicted_step_ms;
  std::optional<planning::Plan> plan;  ///< none for the default schedule
};

/// Key of a step for predicted_step_ms: the node name, or "value->layout" for a transform.
[[nodiscard]] std::string step_key(const std::string& name, bool transform, const std::string& to_layout);

/// Adds the --plan option.
void add_plan_option(CLI::App& command, std::string& plan_path);

[[nodiscard]] ScheduledModel load_scheduled_model(const ModelArgument& model, const std::string& plan_path);

}  // namespace layoutopt::apps
