#pragma once
// How the plan step plans (plan_network.h): the solver and its limits, and how hard it checks
// the measurements it plans from. `optimize` and `plan` start from these defaults (`plan`'s
// flags override them), so both plan alike from the same files.

#include <cstddef>
#include <string>

#include "layoutopt/costs/network_calibration.h"
#include "layoutopt/planning/planner.h"

namespace layoutopt::pipeline {

/// The memory DP's tables may take: a quarter of this machine's physical memory, and at
/// least the solvers' own default (1 GiB). The tables live only while DP solves, and with a
/// few more layout candidates per node (a normal tuning budget instead of a quick one)
/// inception-v3 needs 1.1 GiB of them: under the solvers' default DP refused it and only
/// PBQP's unproven answer was left.
[[nodiscard]] size_t dp_memory_budget();

struct PlanPolicy {
  /// automatic: DP, or PBQP when DP refuses the problem (planner.h); or dp, pbqp.
  planning::SolverChoice solver = planning::SolverChoice::automatic;
  /// Seconds PBQP may search.
  double time_limit_s = 10.0;
  /// Bytes DP's tables may take.
  size_t dp_memory_bytes = dp_memory_budget();
  /// Timings each chosen tuned config needs (config_confirmation.h), its tuning trial
  /// included; 0 or 1: the records as they are.
  int confirm_timings = 3;
  /// Plans whose steps are timed inside the compiled network (network_calibration.h); 0:
  /// transforms priced by the table, nodes by the records.
  int calibrate_rounds = costs::CalibrationOptions{}.max_rounds;
};

/// The planner options of `policy` for plans recorded with `target` and `costs`.
[[nodiscard]] planning::PlannerOptions planner_options(const PlanPolicy& policy, const std::string& target,
                                                       planning::CostKind costs);

}  // namespace layoutopt::pipeline
