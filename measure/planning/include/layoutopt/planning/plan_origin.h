#pragma once
// Where a plan's numbers come from: the solver and the kind of costs, as enums everywhere
// in the code, spelled as on the command line and in plan files ("auto", "dp", "pbqp";
// "measured", "modelled") only where text is read or written.

#include <string>
#include <string_view>

namespace layoutopt::planning {

/// Which solver plans: automatic runs DP and falls back to PBQP when DP refuses (planner.h).
/// A plan records the solver that answered, dp or pbqp.
enum class SolverChoice { automatic, dp, pbqp };
/// Where the plan's numbers come from: measured (tuning records, transform table, timed
/// flexible ops) or modelled (the analytic model).
enum class CostKind { measured, modelled };

/// Throws std::invalid_argument naming `text` and the allowed spellings.
[[nodiscard]] SolverChoice parse_solver(std::string_view text);
[[nodiscard]] CostKind parse_cost_kind(std::string_view text);
[[nodiscard]] std::string to_string(SolverChoice solver);
[[nodiscard]] std::string to_string(CostKind costs);

/// Where a plan's numbers came from.
struct PlanOrigin {
  std::string target;
  CostKind costs = CostKind::measured;
  SolverChoice solver = SolverChoice::dp;
};

}  // namespace layoutopt::planning
