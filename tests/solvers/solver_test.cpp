// Cross-checks: every exact solver agrees with exhaustive enumeration on random tiny
// instances (forbidden pairs, multi-edges, disconnected parts, single-candidate nodes).

#include "layoutopt/solvers/solver.h"

#include <doctest/doctest.h>

#include "layoutopt/solvers/error.h"
#include "test_problems.h"

namespace layoutopt::solvers {

using testing::same_cost;

TEST_CASE("the factory knows every solver and rejects unknown names") {
  for (const std::string& name : solver_names()) CHECK(make_solver(name)->name() == name);
  CHECK_THROWS_WITH_AS((void)make_solver("annealing"),
                       "unknown solver 'annealing' (expected one of: dp, pbqp, exact, greedy, toulbar2)", SolverError);
}

TEST_CASE("dp, pbqp and exact agree on hundreds of random small instances") {
  const auto exact = make_solver("exact");
  const auto dp = make_solver("dp");
  const auto pbqp = make_solver("pbqp");
  const SolveOptions options = testing::deterministic();
  int infeasible = 0;
  for (uint64_t seed = 0; seed < 400; ++seed) {
    CAPTURE(seed);
    const Problem problem = testing::random_problem(seed);
    const Solution truth = exact->solve(problem, options);
    for (const Solution& answer : {dp->solve(problem, options), pbqp->solve(problem, options)}) {
      CHECK(same_cost(answer.cost, truth.cost));
      CHECK(same_cost(problem.evaluate(answer.assignment), answer.cost));
      CHECK(answer.optimal);
      CHECK(answer.feasible == truth.feasible);
      REQUIRE(answer.lower_bound);
      CHECK(*answer.lower_bound <= truth.cost + 1e-9);
    }
    infeasible += !truth.feasible;
  }
  CHECK(infeasible > 0);  // the generator does exercise infeasible instances
}

TEST_CASE("pbqp without branch-and-bound still returns a valid bound") {
  const auto exact = make_solver("exact");
  const auto pbqp = make_solver("pbqp");
  SolveOptions options = testing::deterministic();
  options.branch_and_bound = false;
  int proven = 0;
  for (uint64_t seed = 1000; seed < 1100; ++seed) {
    CAPTURE(seed);
    const Problem problem = testing::random_problem(seed, {.forbidden_probability = 0});
    const Solution truth = exact->solve(problem, options);
    const Solution answer = pbqp->solve(problem, options);
    CHECK(answer.cost >= truth.cost - 1e-9);
    REQUIRE(answer.lower_bound);
    CHECK(*answer.lower_bound <= truth.cost + 1e-9);
    if (answer.optimal) CHECK(same_cost(answer.cost, truth.cost));
    proven += answer.optimal;
  }
  CHECK(proven > 0);  // the bound does meet the cost on some: the check above ran
}

TEST_CASE("greedy ignores edges and has no bound") {
  Problem problem;
  problem.add_node("a", testing::vec({1, 2}));
  problem.add_node("b", testing::vec({1, 2}));
  problem.add_edge("a", "b", testing::mat({{10, 10}, {10, 0}}));
  const Solution greedy = make_solver("greedy")->solve(problem, testing::deterministic());
  CHECK(greedy.assignment == Assignment{0, 0});
  CHECK(greedy.cost == doctest::Approx(12));
  CHECK_FALSE(greedy.optimal);
  CHECK_FALSE(greedy.lower_bound);
  CHECK(make_solver("dp")->solve(problem, testing::deterministic()).cost == doctest::Approx(4));
}

TEST_CASE("infeasible instances are reported as infeasible, and proven so") {
  Problem problem;
  problem.add_node("a", testing::vec({0, 0}));
  problem.add_node("b", testing::vec({0, 0}));
  problem.add_edge("a", "b", testing::mat({{kInfinity, kInfinity}, {kInfinity, kInfinity}}));
  for (const char* name : {"dp", "pbqp", "exact"}) {
    CAPTURE(name);
    const Solution answer = make_solver(name)->solve(problem, testing::deterministic());
    CHECK_FALSE(answer.feasible);
    CHECK(answer.cost == kInfinity);
    CHECK(answer.optimal);
  }
}

TEST_CASE("gap is relative to the cost and absent without a bound") {
  Solution solution;
  solution.cost = 10;
  CHECK_FALSE(solution.gap());
  solution.lower_bound = 9;
  CHECK(*solution.gap() == doctest::Approx(0.1));
  solution.lower_bound = 10;
  CHECK(*solution.gap() == 0.0);
}

}  // namespace layoutopt::solvers
