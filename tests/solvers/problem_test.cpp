#include "layoutopt/solvers/problem.h"

#include <doctest/doctest.h>

#include "layoutopt/solvers/error.h"
#include "test_problems.h"

namespace layoutopt::solvers {

using testing::mat;
using testing::vec;

TEST_CASE("evaluate sums node and edge costs once each") {
  Problem problem;
  problem.add_node("a", vec({1, 2}));
  problem.add_node("b", vec({10, 20, 30}));
  problem.add_edge("a", "b", mat({{0, 1, 2}, {3, 4, 5}}));
  CHECK(problem.evaluate(std::vector<int>{1, 2}) == doctest::Approx(2 + 30 + 5));
  CHECK(problem.evaluate(std::vector<int>{0, 0}) == doctest::Approx(11));
}

TEST_CASE("multi-edges merge by adding matrices, in either direction") {
  Problem problem;
  problem.add_node("a", vec({0, 0}));
  problem.add_node("b", vec({0, 0}));
  problem.add_edge("a", "b", mat({{1, 2}, {3, 4}}));
  problem.add_edge("b", "a", mat({{10, 20}, {30, 40}}));  // rows: b
  REQUIRE(problem.edge_count() == 1);
  // a=0, b=1: first matrix (0,1)=2, second (b=1, a=0)=30.
  CHECK(problem.evaluate(std::vector<int>{0, 1}) == doctest::Approx(32));
}

TEST_CASE("infinite entries make an assignment infinitely expensive") {
  Problem problem;
  problem.add_node("a", vec({0, kInfinity}));
  CHECK(problem.evaluate(std::vector<int>{1}) == kInfinity);
  CHECK(problem.evaluate(std::vector<int>{0}) == 0);
}

TEST_CASE("bad nodes and edges are rejected with the reason") {
  Problem problem;
  problem.add_node("a", vec({1, 2}));
  problem.add_node("b", vec({1}));
  CHECK_THROWS_WITH_AS(problem.add_node("a", vec({1})), "duplicate node name 'a'", SolverError);
  CHECK_THROWS_WITH_AS(problem.add_node("c", Vector()), "node 'c' has no candidates", SolverError);
  CHECK_THROWS_WITH_AS(problem.add_node("d", vec({std::nan("")})), "node 'd' has a NaN cost", SolverError);
  CHECK_THROWS_WITH_AS(problem.add_node("e", vec({1, 2}), {"only one"}),
                       doctest::Contains("has 1 labels, expected 2"), SolverError);
  CHECK_THROWS_WITH_AS(problem.add_edge("a", "b", mat({{1, 2}})),
                       "edge 'a' -> 'b': cost matrix is 1x2, expected 2x1 (candidates of source x candidates of target)",
                       SolverError);
  CHECK_THROWS_WITH_AS(problem.add_edge("a", "zzz", mat({{1}})), "unknown node 'zzz'", SolverError);
  CHECK_THROWS_WITH_AS(problem.add_edge("a", "a", mat({{1, 2}, {3, 4}})), doctest::Contains("self-edges"), SolverError);
}

TEST_CASE("assignments of the wrong shape are rejected") {
  Problem problem;
  problem.add_node("a", vec({1, 2}));
  CHECK_THROWS_WITH_AS((void)problem.evaluate(std::vector<int>{0, 0}), doctest::Contains("expected 1"), SolverError);
  CHECK_THROWS_WITH_AS((void)problem.evaluate(std::vector<int>{2}), doctest::Contains("node 'a', which has 2"),
                       SolverError);
}

}  // namespace layoutopt::solvers
