#pragma once
// plan_layouts: the whole planning step in one call. Builds the layout problem of a prepared
// graph from a cost source, solves it, reads the answer back and packs it as a Plan.
//
//   SolverChoice::automatic ("auto") runs the exact DP solver and falls back to PBQP when DP
//   refuses the problem (its tables would exceed the memory budget): DP's answer is proven
//   optimal, PBQP handles any width and still reports a lower bound.

#include <string>

#include "layoutopt/planning/cost_source.h"
#include "layoutopt/planning/plan.h"
#include "layoutopt/planning/plan_origin.h"
#include "layoutopt/solvers/solution.h"

namespace layoutopt::planning {

struct PlannerOptions {
  SolverChoice solver = SolverChoice::automatic;
  solvers::SolveOptions solve;
  std::string target;                   ///< recorded in the plan
  CostKind costs = CostKind::measured;  ///< recorded in the plan
};

struct PlanResult {
  Plan plan;
  solvers::Solution solution;
  SolverChoice solver = SolverChoice::dp;  ///< the solver that answered: dp or pbqp
  std::string fallback_reason; ///< why automatic left DP; empty otherwise
  size_t problem_nodes = 0;
  size_t candidates = 0;       ///< offered by the cost source, before pruning
};

/// Throws std::runtime_error when the cost source fails (naming the node), the chosen solver
/// refuses, or no finite-cost assignment exists.
[[nodiscard]] PlanResult plan_layouts(const graph::Graph& graph, const CostSource& costs, const PlannerOptions& options);

}  // namespace layoutopt::planning
