#pragma once
// The schedule a command runs a prepared model with: a plan file's (validated against the
// model, so a stale or foreign plan is refused) or, without one, the default schedule. One
// rule for `run`, `bench`, `compile`, JIT sessions and the Python module.

#include <filesystem>
#include <optional>
#include <string>

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/network/network_schedule.h"
#include "layoutopt/planning/plan.h"

namespace layoutopt::pipeline {

struct LoadedSchedule {
  kernels::NetworkSchedule schedule;
  /// "plan.json (dp, measured costs, predicted 12.3 ms)" or "default schedule (untuned, ...)".
  std::string source;
  std::optional<planning::Plan> plan;  ///< none for the default schedule
};

/// `graph` prepared for inference; an empty `plan_path` means the default schedule. Throws
/// planning::PlanError for a plan file that cannot be read or does not fit the graph.
[[nodiscard]] LoadedSchedule load_schedule(const graph::Graph& graph, const std::filesystem::path& plan_path);

}  // namespace layoutopt::pipeline
