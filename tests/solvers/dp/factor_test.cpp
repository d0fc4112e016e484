#include "dp/factor.h"

#include <doctest/doctest.h>

#include "../test_problems.h"

namespace layoutopt::solvers::dp {

TEST_CASE("pairwise factors keep the matrix whatever the edge direction") {
  const Edge forward{0, 1, std::make_shared<const Matrix>(testing::mat({{1, 2, 3}, {4, 5, 6}}))};
  const Edge backward{1, 0, forward.costs};  // rows are node 1 now
  const Factor f = Factor::pairwise(forward);
  const Factor b = Factor::pairwise(backward);
  CHECK(f.scope == std::vector<int>{0, 1});
  CHECK(f.table[1 * 3 + 2] == 6);  // x0 = 1, x1 = 2
  CHECK(b.scope == std::vector<int>{0, 1});
  CHECK(b.dims == std::vector<int>{3, 2});
  CHECK(b.table[2 * 2 + 1] == 6);  // x0 = 2, x1 = 1: row 1, column 2 of the matrix
}

TEST_CASE("eliminating the middle of a path minimises over it") {
  // a - b - c, eliminate b: m(a, c) = min_b (c_b + ab + bc).
  const std::vector<int> candidates{2, 2, 2};
  const Factor unary_b = Factor::unary(1, testing::vec({0, 5}));
  const Factor ab = Factor::pairwise({0, 1, std::make_shared<const Matrix>(testing::mat({{0, 1}, {1, 0}}))});
  const Factor bc = Factor::pairwise({1, 2, std::make_shared<const Matrix>(testing::mat({{0, 3}, {3, 0}}))});
  const Factor message = eliminate({&unary_b, &ab, &bc}, 1, candidates);
  CHECK(message.scope == std::vector<int>{0, 2});
  CHECK(message.table == std::vector<Cost>{0, 3, 1, 4});  // (a,c) = (0,0) (0,1) (1,0) (1,1)
  CHECK(best_choice({&unary_b, &ab, &bc}, 1, 2, Assignment{1, 0, 1}) == 0);
}

}  // namespace layoutopt::solvers::dp
