#include "pbqp/dual_bound.h"

#include <doctest/doctest.h>

#include "../test_problems.h"
#include "layoutopt/solvers/generator.h"
#include "layoutopt/solvers/solver.h"

namespace layoutopt::solvers::pbqp {

TEST_CASE("the dual bound never exceeds the optimum") {
  const Deadline no_limit(1e9);
  for (uint64_t seed = 0; seed < 200; ++seed) {
    CAPTURE(seed);
    const Problem problem = testing::random_problem(seed, {.edge_probability = 0.7});
    const PbqpGraph graph(problem);
    DualBound dual(graph);
    const Cost bound = dual.run(100, kInfinity, no_limit);
    const Cost optimum = make_solver("exact")->solve(problem, {}).cost;
    CHECK(bound <= optimum + 1e-9 * (1 + std::abs(bound)));
  }
}

TEST_CASE("the dual bound is tight on trees") {
  const Deadline no_limit(1e9);
  const Problem chain = generate_instance({.structure = Structure::chain, .nodes = 50, .candidates = 6});
  const PbqpGraph graph(chain);
  DualBound dual(graph);
  const Cost bound = dual.run(200, kInfinity, no_limit);
  CHECK(bound == doctest::Approx(make_solver("dp")->solve(chain, {}).cost).epsilon(1e-6));
  Assignment rounded(chain.node_count(), 0);
  dual.round(rounded);
  CHECK(chain.evaluate(rounded) == doctest::Approx(bound).epsilon(1e-6));
}

TEST_CASE("the dual detects infeasibility through chains of forbidden pairs") {
  Problem problem;
  problem.add_node("a", testing::vec({0, kInfinity}));
  problem.add_node("b", testing::vec({0, 0}));
  problem.add_node("c", testing::vec({0, 0}));
  problem.add_edge("a", "b", testing::mat({{kInfinity, 0}, {0, 0}}));  // a=0 forces b=1
  problem.add_edge("b", "c", testing::mat({{0, 0}, {kInfinity, kInfinity}}));  // b=1 has no partner
  const PbqpGraph graph(problem);
  DualBound dual(graph);
  CHECK(dual.run(10, kInfinity, Deadline(1e9)) == kInfinity);
}

}  // namespace layoutopt::solvers::pbqp
