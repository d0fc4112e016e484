#include "dp/elimination_order.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "layoutopt/solvers/error.h"
#include "layoutopt/solvers/generator.h"

namespace layoutopt::solvers::dp {

TEST_CASE("orders eliminate every node once") {
  const Problem problem = generate_instance({.structure = Structure::random_wiring, .nodes = 300, .candidates = 3});
  for (OrderHeuristic heuristic : {OrderHeuristic::min_fill, OrderHeuristic::min_degree}) {
    EliminationPlan plan = plan_elimination(EliminationStructure::of(problem), heuristic, 1e12);
    CHECK(plan.order.size() == 300);
    std::ranges::sort(plan.order);
    CHECK(std::ranges::adjacent_find(plan.order) == plan.order.end());
  }
}

TEST_CASE("a k x k grid has induced width about k under min-fill") {
  const Problem grid = generate_instance({.structure = Structure::grid, .nodes = 36, .candidates = 2});
  const EliminationPlan plan = plan_elimination(EliminationStructure::of(grid), OrderHeuristic::min_fill, 1e12);
  CHECK(plan.induced_width >= 6);  // treewidth of the 6x6 grid is 6
  CHECK(plan.induced_width <= 8);
}

TEST_CASE("dense blocks give cliques: width is the block size") {
  const Problem dense = generate_instance({.structure = Structure::dense, .nodes = 14, .candidates = 2, .seed = 3});
  const EliminationPlan plan = plan_elimination(EliminationStructure::of(dense), OrderHeuristic::min_fill, 1e12);
  CHECK(plan.induced_width >= 4);
  CHECK_FALSE(plan_elimination(EliminationStructure::of(dense), OrderHeuristic::min_fill, 10.0).within_budget);
}

}  // namespace layoutopt::solvers::dp
