#include "layoutopt/solvers/candidate_reduction.h"

#include <doctest/doctest.h>

#include <random>

#include "layoutopt/solvers/generator.h"
#include "layoutopt/solvers/solver.h"
#include "test_problems.h"

namespace layoutopt::solvers {

TEST_CASE("identical candidates merge, dominated ones go, and removals cascade to the neighbours") {
  Problem problem;
  problem.add_node("a", testing::vec({1, 1, 2, 0.5}));
  problem.add_node("b", testing::vec({0, 0}));
  // a1 duplicates a0 and a2 is worse than a0 everywhere. b1 is never cheaper than b0, and
  // once b1 is gone a3 (cheaper, worse only on b1) dominates a0 too.
  problem.add_edge("a", "b", testing::mat({{0, 1}, {0, 1}, {0, 2}, {0, 5}}));
  const CandidateReduction reduction = eliminate_dominated_candidates(problem);
  CHECK(reduction.kept[0] == std::vector<int>{3});
  CHECK(reduction.kept[1] == std::vector<int>{0});
  CHECK(reduction.removed_candidates() == 4);
  CHECK(reduction.expand({0, 0}) == Assignment{3, 0});
  // Both ends are down to one candidate: the edge is folded into a node cost.
  CHECK(reduction.reduced.edge_count() == 0);
  CHECK(reduction.reduced.evaluate(Assignment{0, 0}) == doctest::Approx(problem.evaluate(Assignment{3, 0})));
}

TEST_CASE("Goldstein's criterion weighs node and edge differences together") {
  // v1 is cheaper on the edge by at most 1 and dearer on the node by 3: no single term shows
  // it, the sum does. Elementwise dominance would keep both.
  Problem problem;
  problem.add_node("v", testing::vec({0, 3}));
  problem.add_node("x", testing::vec({0, 0.5}));
  problem.add_node("y", testing::vec({0, 0, 0}));
  problem.add_edge("v", "x", testing::mat({{1, 0}, {0, 0}}));
  problem.add_edge("v", "y", testing::mat({{0, 2, 1}, {1, 1, 1}}));
  const CandidateReduction reduction = eliminate_dominated_candidates(problem);
  CHECK(reduction.kept[0] == std::vector<int>{0});
  const auto dp = make_solver("dp");
  SolveOptions as_given = testing::deterministic();
  as_given.drop_dominated = false;
  CHECK(dp->solve(reduction.reduced, as_given).cost == doctest::Approx(dp->solve(problem, as_given).cost));
}

TEST_CASE("a candidate that no finite assignment can use goes, but every node keeps one") {
  Problem problem;
  problem.add_node("a", testing::vec({0.5, 0.1}));
  problem.add_node("b", testing::vec({0, 0}));
  // a1 is cheaper but has no finite partner on the edge.
  problem.add_edge("a", "b", testing::mat({{0, 1}, {kInfinity, kInfinity}}));
  CHECK(eliminate_dominated_candidates(problem).kept[0] == std::vector<int>{0});

  Problem infeasible;
  infeasible.add_node("a", testing::vec({kInfinity, kInfinity}));
  CHECK(eliminate_dominated_candidates(infeasible).kept[0].size() == 1);
}

TEST_CASE("every reduced assignment costs what its expansion costs in the original") {
  std::mt19937_64 random(7);
  for (uint64_t seed = 0; seed < 10; ++seed) {
    CAPTURE(seed);
    const Problem problem = generate_instance({.structure = Structure::random_wiring, .nodes = 80, .candidates = 10,
                                               .seed = seed, .forbidden_probability = 0.1});
    const CandidateReduction reduction = eliminate_dominated_candidates(problem);
    CHECK(reduction.removed_candidates() > 0);
    CHECK(reduction.reduced.edge_count() <= problem.edge_count());
    for (int trial = 0; trial < 20; ++trial) {
      Assignment reduced(problem.node_count());
      for (size_t v = 0; v < reduced.size(); ++v) {
        const int candidates = reduction.reduced.candidates(static_cast<int>(v));
        reduced[v] = std::uniform_int_distribution<int>(0, candidates - 1)(random);
      }
      const Cost expected = problem.evaluate(reduction.expand(reduced));
      if (is_finite(expected))
        CHECK(reduction.reduced.evaluate(reduced) == doctest::Approx(expected));
      else
        CHECK_FALSE(is_finite(reduction.reduced.evaluate(reduced)));
    }
  }
}

TEST_CASE("the reduction preserves the optimum") {
  const auto dp = make_solver("dp");
  const auto exact = make_solver("exact");
  SolveOptions as_given = testing::deterministic();
  as_given.drop_dominated = false;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    CAPTURE(seed);
    const Problem problem =
        generate_instance({.structure = Structure::inception, .nodes = 120, .candidates = 12, .seed = seed});
    const CandidateReduction reduction = eliminate_dominated_candidates(problem);
    const Solution reduced = dp->solve(reduction.reduced, as_given);
    const Assignment mapped = reduction.expand(reduced.assignment);
    CHECK(problem.evaluate(mapped) == doctest::Approx(dp->solve(problem, as_given).cost));
  }
  // Tiny problems with forbidden entries, multi-edges and one-candidate nodes, against
  // exhaustive search on the problem as given.
  for (uint64_t seed = 0; seed < 300; ++seed) {
    CAPTURE(seed);
    const Problem problem = testing::random_problem(seed);
    const CandidateReduction reduction = eliminate_dominated_candidates(problem);
    const Solution truth = exact->solve(problem, testing::deterministic());
    const Solution reduced = exact->solve(reduction.reduced, {});
    CHECK(is_finite(truth.cost) == is_finite(reduced.cost));
    if (is_finite(truth.cost))
      CHECK(problem.evaluate(reduction.expand(reduced.assignment)) == doctest::Approx(truth.cost));
  }
}

TEST_CASE("dp and pbqp answer the same with and without the reduction, and report what it removed") {
  const Problem problem =
      generate_instance({.structure = Structure::random_wiring, .nodes = 200, .candidates = 12, .seed = 4});
  SolveOptions as_given = testing::deterministic();
  as_given.drop_dominated = false;
  for (const char* name : {"dp", "pbqp"}) {
    CAPTURE(name);
    const auto solver = make_solver(name);
    const Solution reduced = solver->solve(problem, testing::deterministic());
    const Solution plain = solver->solve(problem, as_given);
    CHECK(reduced.optimal);
    CHECK(reduced.cost == doctest::Approx(make_solver("dp")->solve(problem, as_given).cost));
    CHECK(reduced.stats.at("removed_candidates") > 0);
    CHECK_FALSE(plain.stats.contains("removed_candidates"));
    CHECK(problem.evaluate(reduced.assignment) == doctest::Approx(reduced.cost));
  }
}

}  // namespace layoutopt::solvers
