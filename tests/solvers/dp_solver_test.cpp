#include <doctest/doctest.h>

#include "layoutopt/solvers/error.h"
#include "layoutopt/solvers/generator.h"
#include "layoutopt/solvers/solver.h"
#include "test_problems.h"

namespace layoutopt::solvers {

TEST_CASE("dp reports induced width and table sizes of series-parallel graphs") {
  const auto dp = make_solver("dp");
  SolveOptions as_given = testing::deterministic();  // the tables of the problem itself, not of its reduction
  as_given.drop_dominated = false;
  const Solution chain =
      dp->solve(generate_instance({.structure = Structure::chain, .nodes = 200, .candidates = 10}), as_given);
  CHECK(chain.stats.at("induced_width") == 1);
  CHECK(chain.stats.at("peak_table_entries") == 10);
  const Solution residual =
      dp->solve(generate_instance({.structure = Structure::residual, .nodes = 200, .candidates = 10}), as_given);
  CHECK(residual.stats.at("induced_width") == 2);
  CHECK(residual.optimal);
}

TEST_CASE("dp refuses before allocating when tables exceed the memory budget") {
  const Problem grid = generate_instance({.structure = Structure::grid, .nodes = 400, .candidates = 20});
  SolveOptions options = testing::deterministic();
  options.memory_budget_bytes = size_t{64} << 20;
  CHECK_THROWS_WITH_AS((void)make_solver("dp")->solve(grid, options),
                       doctest::Contains("over the memory budget of 64.0 MiB; use --solver pbqp"), SolverError);
}

TEST_CASE("dp holds only live messages and back-tracking choices, not every table") {
  // A width-4 instance whose tables add up to about 37 MB: each message is freed once used,
  // and back-tracking keeps 2 bytes per entry, so 16 MiB is enough (about 8 MiB at peak).
  const Problem problem =
      generate_instance({.structure = Structure::random_wiring, .nodes = 300, .candidates = 20, .seed = 300});
  SolveOptions options = testing::deterministic();
  options.memory_budget_bytes = size_t{16} << 20;
  options.drop_dominated = false;  // all 20 candidates, so the tables are that big
  const Solution dp = make_solver("dp")->solve(problem, options);
  CHECK(dp.stats.at("total_table_entries") * sizeof(Cost) > 2.0 * static_cast<double>(options.memory_budget_bytes));
  CHECK(dp.stats.at("peak_memory_entries") * sizeof(Cost) <= static_cast<double>(options.memory_budget_bytes));
  SolveOptions prove = testing::deterministic();
  prove.prove_optimality = true;
  CHECK(testing::same_cost(dp.cost, make_solver("pbqp")->solve(problem, prove).cost));
  CHECK(testing::same_cost(problem.evaluate(dp.assignment), dp.cost));
}

TEST_CASE("dp agrees with pbqp on 1000-node series-parallel instances") {
  for (Structure structure : {Structure::chain, Structure::residual, Structure::inception}) {
    CAPTURE(structure_name(structure));
    const Problem problem = generate_instance({.structure = structure, .nodes = 1000, .candidates = 20, .seed = 7});
    const Solution dp = make_solver("dp")->solve(problem, testing::deterministic());
    const Solution pbqp = make_solver("pbqp")->solve(problem, testing::deterministic());
    CHECK(testing::same_cost(dp.cost, pbqp.cost));
    CHECK(pbqp.optimal);
    CHECK(dp.cost <= make_solver("greedy")->solve(problem, testing::deterministic()).cost);
  }
}

}  // namespace layoutopt::solvers
