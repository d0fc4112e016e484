#pragma once
// What `run`, `bench` and `compile` execute: a model prepared for inference, with the
// schedule pipeline::load_schedule gives it.

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
  std::optional<planning::Plan> plan;  ///< none for the default schedule
};

/// MODEL (with --batch and --seed) and --plan (empty: the default schedule).
struct ScheduledModelArgument {
  ModelArgument model;
  std::string plan;
};

/// Adds MODEL, --batch, --seed and --plan.
void add_scheduled_model_arguments(CLI::App& command, ScheduledModelArgument& argument);

[[nodiscard]] ScheduledModel load_scheduled_model(const ScheduledModelArgument& argument);

}  // namespace layoutopt::apps
