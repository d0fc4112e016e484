#pragma once
// plan_layouts: the whole planning step in one call. Builds the layout problem of a prepared
// graph from a cost source, solves it, reads the answer back and packs it as a Plan.
//
//   "auto" runs the exact DP solver and falls back to PBQP when DP refuses the problem (its
//   tables would exceed the memory budget): DP's answer is proven optimal, PBQP handles any
//   width and still reports a lower bound.

#include <string>
#include <string_view>

#include "layoutopt/planning/cost_source.h"
#include "layoutopt/planning/plan.h"
#include "layoutopt/solvers/solution.h"

namespace layoutopt::planning {

/// Which solver plan_layouts runs. Spelled as on the command line: "auto", "dp", "pbqp".
enum class SolverChoice { automatic, dp, pbqp };
/// Where the plan's numbers come from, recorded in the plan: "measured" (tuning records,
/// transform table, timed flexible ops) or "modelled" (the analytic model).
enum class CostKind { measured, modelled };

/// Throws std::invalid_argument naming `text` and the allowed spellings.
[[nodiscard]] SolverChoice parse_solver(std::string_view text);
[[nodiscard]] CostKind parse_cost_kind(std::string_view text);
[[nodiscard]] std::string to_string(SolverChoice solver);
[[nodiscard]] std::string to_string(CostKind costs);

/// Transitional, while apps/ still fills PlannerOptions with the command line's strings
/// (`.solver = flags.solver`): an Enum that also takes its spelling, parsed at once (a bad
/// spelling throws the parse error). It reads as the Enum (==, switch, to_string). Once
/// apps/ passes parse_solver(...) / parse_cost_kind(...) itself, the fields below become the
/// plain enums and this goes.
template <class Enum, Enum (*parse)(std::string_view)>
class AcceptsSpelling {
 public:
  constexpr AcceptsSpelling(Enum value) : value_(value) {}
  AcceptsSpelling(const char* spelling) : value_(parse(spelling)) {}
  AcceptsSpelling(const std::string& spelling) : value_(parse(spelling)) {}
  constexpr operator Enum() const { return value_; }
  [[nodiscard]] constexpr Enum value() const { return value_; }

 private:
  Enum value_;
};

struct PlannerOptions {
  AcceptsSpelling<SolverChoice, parse_solver> solver = SolverChoice::automatic;
  solvers::SolveOptions solve;
  std::string target;  ///< recorded in the plan
  AcceptsSpelling<CostKind, parse_cost_kind> costs = CostKind::measured;  ///< recorded in the plan
};

struct PlanResult {
  Plan plan;
  solvers::Solution solution;
  std::string solver;          ///< the solver that answered
  std::string fallback_reason; ///< why "auto" left DP; empty otherwise
  size_t problem_nodes = 0;
  size_t candidates = 0;       ///< offered by the cost source, before pruning
};

/// Throws std::runtime_error when the cost source fails (naming the node), the chosen solver
/// refuses, or no finite-cost assignment exists.
[[nodiscard]] PlanResult plan_layouts(const graph::Graph& graph, const CostSource& costs, const PlannerOptions& options);

}  // namespace layoutopt::planning
