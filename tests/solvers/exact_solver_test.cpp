#include <doctest/doctest.h>

#include "layoutopt/solvers/error.h"
#include "layoutopt/solvers/generator.h"
#include "layoutopt/solvers/solver.h"

namespace layoutopt::solvers {

TEST_CASE("exact refuses search spaces above its limit, naming the alternatives") {
  const Problem problem = generate_instance({.structure = Structure::chain, .nodes = 12, .candidates = 8});
  CHECK_THROWS_WITH_AS((void)make_solver("exact")->solve(problem, {}), doctest::Contains("use --solver dp or pbqp"),
                       SolverError);
}

TEST_CASE("exact finds the optimum of a small chain and proves it") {
  const Problem problem = generate_instance({.structure = Structure::chain, .nodes = 6, .candidates = 4});
  const Solution exact = make_solver("exact")->solve(problem, {});
  CHECK(exact.optimal);
  CHECK(exact.cost == doctest::Approx(make_solver("dp")->solve(problem, {}).cost));
}

}  // namespace layoutopt::solvers
