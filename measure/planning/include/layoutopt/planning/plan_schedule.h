#pragma once
// From a plan file to what the compiler runs: the NetworkSchedule a validated plan
// describes. Each node's layouts come from the plan; conv2d / dense nodes get the knobs of
// their tuned config (the node's TunedKernel).

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/network/network_schedule.h"
#include "layoutopt/planning/plan.h"

namespace layoutopt::planning {

/// Validates the plan against `graph` (validate_plan), then reads it. Throws PlanError naming
/// the node for a conv / dense without a tuned config (plans made with --model-costs have
/// none). An unreadable payload or layout fails earlier, in plan_from_json.
[[nodiscard]] kernels::NetworkSchedule network_schedule(const Plan& plan, const graph::Graph& graph);

}  // namespace layoutopt::planning
