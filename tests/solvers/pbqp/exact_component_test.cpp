#include "pbqp/exact_component.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "../test_problems.h"
#include "layoutopt/solvers/solver.h"

namespace layoutopt::solvers::pbqp {

namespace {

// Every candidate of every node, each node's list shuffled: the restriction is the whole
// problem, but its tables cannot be shared as they are (rows and columns are re-ordered).
CandidateSets shuffled_candidates(const PbqpGraph& graph, std::mt19937_64& random) {
  CandidateSets sets(graph.size());
  for (int v = 0; v < graph.size(); ++v) {
    for (int i = 0; i < graph.candidates(v); ++i) sets[v].push_back(i);
    std::ranges::shuffle(sets[v], random);
  }
  return sets;
}

}  // namespace

TEST_CASE("elimination of the whole graph or of a re-ordered restriction finds the exact optimum") {
  const auto exact = make_solver("exact");
  std::mt19937_64 random(7);
  for (uint64_t seed = 0; seed < 150; ++seed) {
    CAPTURE(seed);
    const Problem problem = testing::random_problem(seed);
    const Cost optimum = exact->solve(problem, {}).cost;
    const PbqpGraph graph(problem);

    Assignment whole(problem.node_count(), 0);
    const auto whole_cost = solve_by_elimination(graph, kInfinity, kInfinity, whole);
    REQUIRE(whole_cost.has_value());
    CHECK(testing::same_cost(*whole_cost, optimum));
    if (is_finite(optimum)) CHECK(testing::same_cost(problem.evaluate(whole), optimum));

    Assignment restricted(problem.node_count(), 0);
    const auto restricted_cost =
        solve_restricted(graph, shuffled_candidates(graph, random), kInfinity, restricted);
    REQUIRE(restricted_cost.has_value());
    CHECK(testing::same_cost(*restricted_cost, optimum));
    if (is_finite(optimum)) CHECK(testing::same_cost(problem.evaluate(restricted), optimum));
  }
}

TEST_CASE("a restriction fits exactly when its solve is not refused for work") {
  const Problem problem = testing::random_problem(3, {.max_nodes = 7, .max_candidates = 4, .edge_probability = 0.9});
  const PbqpGraph graph(problem);
  std::mt19937_64 random(3);
  const CandidateSets all = shuffled_candidates(graph, random);
  for (double max_work : {0.0, 10.0, 100.0, 1e3, 1e4}) {
    CAPTURE(max_work);
    Assignment assignment(problem.node_count(), 0);
    CHECK(restriction_fits(graph, all, max_work) == solve_restricted(graph, all, max_work, assignment).has_value());
  }
  Assignment assignment(problem.node_count(), 0);
  CHECK_FALSE(restriction_fits(graph, all, 0.0));
  CHECK(restriction_fits(graph, all, kInfinity));
}

}  // namespace layoutopt::solvers::pbqp
