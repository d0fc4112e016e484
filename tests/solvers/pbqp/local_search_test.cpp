#include "pbqp/local_search.h"

#include <doctest/doctest.h>

#include "../test_problems.h"

namespace layoutopt::solvers::pbqp {

TEST_CASE("local search leaves infeasible starts and never gets worse") {
  for (uint64_t seed = 0; seed < 100; ++seed) {
    CAPTURE(seed);
    const Problem problem = testing::random_problem(seed);
    const PbqpGraph graph(problem);
    Assignment assignment(problem.node_count(), 0);
    const Cost before = problem.evaluate(assignment);
    improve_locally(graph, assignment);
    CHECK(problem.evaluate(assignment) <= before);
    CHECK(testing::same_cost(graph_cost(graph, assignment), problem.evaluate(assignment)));
  }
}

TEST_CASE("pair moves escape what single moves cannot") {
  // Both nodes must switch together: each single switch is penalised.
  Problem problem;
  problem.add_node("a", testing::vec({0, 0}));
  problem.add_node("b", testing::vec({0, 0}));
  problem.add_edge("a", "b", testing::mat({{5, 9}, {9, 1}}));
  const PbqpGraph graph(problem);
  Assignment assignment{0, 0};
  improve_locally(graph, assignment);
  CHECK(assignment == Assignment{1, 1});
}

}  // namespace layoutopt::solvers::pbqp
