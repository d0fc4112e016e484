// The pipeline's policy: tuning budgets, the default thread count, and the plan policy that
// `optimize` and `plan` share.

#include "layoutopt/pipeline/budget.h"

#include <doctest/doctest.h>

#include <limits>
#include <stdexcept>

#include "layoutopt/pipeline/optimize.h"
#include "layoutopt/pipeline/plan_policy.h"
#include "layoutopt/pipeline/threads.h"
#include "layoutopt/solvers/solution.h"

using namespace layoutopt;
using pipeline::BudgetLevel;
using pipeline::TuningBudget;

TEST_CASE("named budgets are 60, 600 and 3600 seconds of tuning") {
  CHECK(TuningBudget::of(BudgetLevel::quick).seconds() == 60);
  CHECK(TuningBudget::of(BudgetLevel::normal).seconds() == 600);
  CHECK(TuningBudget::of(BudgetLevel::thorough).seconds() == 3600);
  CHECK(TuningBudget::of(BudgetLevel::normal).level() == BudgetLevel::normal);
  CHECK(pipeline::OptimizeRequest{}.budget == TuningBudget::of(BudgetLevel::quick));
}

TEST_CASE("budget levels are parsed and listed by the names the CLI offers") {
  CHECK(pipeline::budget_level_names() == std::vector<std::string>{"quick", "normal", "thorough"});
  for (const std::string& name : pipeline::budget_level_names())
    CHECK(pipeline::to_string(pipeline::parse_budget_level(name)) == name);
  CHECK(pipeline::parse_budget_level("thorough") == BudgetLevel::thorough);
  CHECK_THROWS_WITH_AS((void)pipeline::parse_budget_level("fast"),
                       doctest::Contains("unknown budget 'fast' (known: quick, normal, thorough)"),
                       std::invalid_argument);
  CHECK(pipeline::describe_budget_levels() == "quick (60 s), normal (600 s), thorough (3600 s)");
}

TEST_CASE("a front end's choice: explicit seconds override the named level") {
  CHECK(TuningBudget::chosen("normal", std::nullopt) == TuningBudget::of(BudgetLevel::normal));
  CHECK(TuningBudget::chosen("thorough", 7.5) == TuningBudget::explicit_seconds(7.5));
  CHECK_FALSE(TuningBudget::chosen("thorough", 7.5).level().has_value());
  CHECK_THROWS_AS((void)TuningBudget::chosen("fast", std::nullopt), std::invalid_argument);
  CHECK_THROWS_AS((void)TuningBudget::chosen("quick", -1.0), std::invalid_argument);
}

TEST_CASE("explicit budgets keep their seconds and must be positive") {
  const TuningBudget budget = TuningBudget::explicit_seconds(12.5);
  CHECK(budget.seconds() == 12.5);
  CHECK_FALSE(budget.level().has_value());
  CHECK(budget != TuningBudget::of(BudgetLevel::quick));
  CHECK(TuningBudget::explicit_seconds(60) != TuningBudget::of(BudgetLevel::quick));  // same seconds, not the level
  CHECK_THROWS_AS((void)TuningBudget::explicit_seconds(0), std::invalid_argument);
  CHECK_THROWS_AS((void)TuningBudget::explicit_seconds(-1), std::invalid_argument);
  CHECK_THROWS_AS((void)TuningBudget::explicit_seconds(std::numeric_limits<double>::infinity()), std::invalid_argument);
  CHECK_THROWS_AS((void)TuningBudget::explicit_seconds(std::numeric_limits<double>::quiet_NaN()), std::invalid_argument);
}

TEST_CASE("an unset thread count is OpenMP's default, a set one is kept") {
  CHECK(pipeline::resolve_threads(3) == 3);
  CHECK(pipeline::resolve_threads(0) >= 1);
  CHECK(pipeline::resolve_threads(-1) == pipeline::resolve_threads(0));
}

TEST_CASE("the plan policy: DP first, 10 s for PBQP, 3 timings per chosen config, 4 calibration plans") {
  const pipeline::PlanPolicy policy;
  CHECK(policy.solver == planning::SolverChoice::automatic);
  CHECK(policy.time_limit_s == 10.0);
  CHECK(policy.confirm_timings == 3);
  CHECK(policy.calibrate_rounds == 4);
  CHECK(policy.dp_memory_bytes >= solvers::SolveOptions{}.memory_budget_bytes);
  CHECK(policy.dp_memory_bytes == pipeline::dp_memory_budget());
  const planning::PlannerOptions options =
      pipeline::planner_options(policy, "llvm -mcpu=x", planning::CostKind::modelled);
  CHECK(options.solver == planning::SolverChoice::automatic);
  CHECK(options.costs == planning::CostKind::modelled);
  CHECK(options.target == "llvm -mcpu=x");
  CHECK(options.solve.time_limit_seconds == 10.0);
  CHECK(options.solve.memory_budget_bytes == policy.dp_memory_bytes);
  const pipeline::OptimizeRequest request;
  CHECK(request.rounds == 5);
  CHECK(request.round_ms == 300.0);
}
