// dp: exact variable elimination (bucket elimination) along a greedy order. Not TVM's
// stage-by-stage state tables: the tables here span only a node's neighbours at
// elimination time, so their size is exponential in the induced width, not in the number
// of live tensors. The plan is checked against the memory budget before any table exists.

#include "builtin_solvers.h"
#include "layoutopt/solvers/candidate_reduction.h"
#include "dp/elimination_order.h"
#include "dp/variable_elimination.h"
#include "stopwatch.h"

namespace layoutopt::solvers {

namespace {

class DpSolver final : public Solver {
 public:
  [[nodiscard]] std::string_view name() const override { return "dp"; }

  [[nodiscard]] Solution solve(const Problem& problem, const SolveOptions& options) const override {
    return solve_without_dominated(problem, options,
                                   [&](const Problem& reduced) { return eliminate(reduced, options); });
  }

 private:
  static Solution eliminate(const Problem& problem, const SolveOptions& options) {
    const Stopwatch clock;
    const double max_entries = static_cast<double>(options.memory_budget_bytes) / sizeof(Cost);
    const dp::EliminationPlan plan = dp::plan_cheapest_elimination(dp::EliminationStructure::of(problem), max_entries);
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
    solution.stats["peak_memory_entries"] = plan.peak_memory_entries;
    solution.seconds = clock.seconds();
    return solution;
  }
};

}  // namespace

std::unique_ptr<Solver> make_dp_solver() { return std::make_unique<DpSolver>(); }

}  // namespace layoutopt::solvers
