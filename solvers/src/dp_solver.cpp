// dp: exact variable elimination (bucket elimination) along a greedy order. Not TVM's
// stage-by-stage state tables: the tables here span only a node's neighbours at
// elimination time, so their size is exponential in the induced width, not in the number
// of live tensors. The plan is checked against the memory budget before any table exists.

#include "builtin_solvers.h"
#include "dp/elimination_order.h"
#include "dp/variable_elimination.h"
#include "stopwatch.h"

namespace layoutopt::solvers {

namespace {

// Planning is cheap next to eliminating, and neither greedy order wins everywhere (min-fill
// keeps the fill low, min-degree the tables small), so both are planned and the one with
// less work runs. A refusal reports min-fill's figures when neither fits.
dp::EliminationPlan cheapest_plan(const Problem& problem, double max_entries) {
  dp::EliminationPlan fill = dp::plan_elimination(problem, dp::OrderHeuristic::min_fill, max_entries);
  dp::EliminationPlan degree = dp::plan_elimination(problem, dp::OrderHeuristic::min_degree, max_entries);
  if (!degree.within_budget) return fill;
  if (!fill.within_budget) return degree;
  return degree.work < fill.work ? degree : fill;
}

class DpSolver final : public Solver {
 public:
  [[nodiscard]] std::string_view name() const override { return "dp"; }

  [[nodiscard]] Solution solve(const Problem& problem, const SolveOptions& options) const override {
    const Stopwatch clock;
    const double max_entries = static_cast<double>(options.memory_budget_bytes) / sizeof(Cost);
    const dp::EliminationPlan plan = cheapest_plan(problem, max_entries);
    if (!plan.within_budget) dp::refuse(plan, max_entries);
    dp::VariableElimination elimination(problem);
    const Cost optimum = elimination.run(plan.order);
    Solution solution;
    solution.assignment = elimination.recover(plan.order);
    finish_solution(problem, solution);
    solution.optimal = true;
    solution.lower_bound = optimum;
    solution.stats["induced_width"] = plan.induced_width;
    solution.stats["peak_table_entries"] = plan.peak_table_entries;
    solution.stats["total_table_entries"] = plan.total_table_entries;
    solution.seconds = clock.seconds();
    return solution;
  }
};

}  // namespace

std::unique_ptr<Solver> make_dp_solver() { return std::make_unique<DpSolver>(); }

}  // namespace layoutopt::solvers
