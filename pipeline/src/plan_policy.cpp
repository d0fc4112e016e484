#include "layoutopt/pipeline/plan_policy.h"

#include <unistd.h>

#include <algorithm>

namespace layoutopt::pipeline {

size_t dp_memory_budget() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_bytes = sysconf(_SC_PAGESIZE);
  const size_t solver_default = solvers::SolveOptions{}.memory_budget_bytes;
  if (pages <= 0 || page_bytes <= 0) return solver_default;
  return std::max(solver_default, static_cast<size_t>(pages) * static_cast<size_t>(page_bytes) / 4);
}

planning::PlannerOptions planner_options(const PlanPolicy& policy, const std::string& target, planning::CostKind costs) {
  planning::PlannerOptions options{.solver = policy.solver, .solve = {}, .target = target, .costs = costs};
  options.solve.time_limit_seconds = policy.time_limit_s;
  options.solve.memory_budget_bytes = policy.dp_memory_bytes;
  return options;
}

}  // namespace layoutopt::pipeline
