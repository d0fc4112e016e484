#include "layoutopt/solvers/candidate_reduction.h"

#include <doctest/doctest.h>

#include "layoutopt/solvers/generator.h"
#include "layoutopt/solvers/solver.h"
#include "test_problems.h"

namespace layoutopt::solvers {

TEST_CASE("identical candidates merge and dominated ones go") {
  Problem problem;
  problem.add_node("a", testing::vec({1, 1, 2, 0.5}));
  problem.add_node("b", testing::vec({0, 0}));
  // Candidate 1 duplicates 0; 2 is worse than 0 everywhere; 3 is cheaper but worse on b=1.
  // b's candidate 1 is never cheaper than its candidate 0.
  problem.add_edge("a", "b", testing::mat({{0, 1}, {0, 1}, {0, 2}, {0, 5}}));
  const CandidateReduction reduction = eliminate_dominated_candidates(problem);
  CHECK(reduction.kept[0] == std::vector<int>{0, 3});
  CHECK(reduction.kept[1] == std::vector<int>{0});
  CHECK(reduction.removed_candidates() == 3);
  CHECK(reduction.expand({1, 0}) == Assignment{3, 0});
}

TEST_CASE("the reduction preserves the optimum") {
  const auto dp = make_solver("dp");
  for (uint64_t seed = 0; seed < 20; ++seed) {
    CAPTURE(seed);
    const Problem problem =
        generate_instance({.structure = Structure::inception, .nodes = 120, .candidates = 12, .seed = seed});
    const CandidateReduction reduction = eliminate_dominated_candidates(problem);
    const Solution reduced = dp->solve(reduction.reduced, {});
    const Assignment mapped = reduction.expand(reduced.assignment);
    CHECK(problem.evaluate(mapped) == doctest::Approx(dp->solve(problem, {}).cost));
  }
}

}  // namespace layoutopt::solvers
