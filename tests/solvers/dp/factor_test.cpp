#include "dp/factor.h"

#include <doctest/doctest.h>

#include <cmath>
#include <random>

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

TEST_CASE("eliminating the middle of a path minimises over it and records the minimiser") {
  // a - b - c, eliminate b: m(a, c) = min_b (c_b + ab + bc).
  const std::vector<int> candidates{2, 2, 2};
  const Factor unary_b = Factor::unary(1, testing::vec({0, 0.5}));
  const Factor ab = Factor::pairwise({0, 1, std::make_shared<const Matrix>(testing::mat({{0, 1}, {1, 0}}))});
  const Factor bc = Factor::pairwise({1, 2, std::make_shared<const Matrix>(testing::mat({{0, 3}, {3, 0}}))});
  Choices choices;
  const Factor message = eliminate({&unary_b, &ab, &bc}, 1, candidates, &choices);
  CHECK(message.scope == std::vector<int>{0, 2});
  CHECK(message.table == std::vector<Cost>{0, 1.5, 1, 0.5});  // (a,c) = (0,0) (0,1) (1,0) (1,1)
  CHECK(choices == Choices{0, 1, 0, 1});
}

namespace {

// A factor over `scope` (ascending) with random costs, some of them forbidden.
Factor random_factor(const std::vector<int>& scope, const std::vector<int>& candidates, std::mt19937_64& random) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Factor factor{scope, {}, {}};
  size_t entries = 1;
  for (int v : scope) {
    factor.dims.push_back(candidates[v]);
    entries *= static_cast<size_t>(candidates[v]);
  }
  for (size_t i = 0; i < entries; ++i) factor.table.push_back(unit(random) < 0.02 ? kInfinity : unit(random));
  return factor;
}

// The factors' sum at one full assignment.
Cost sum_at(const std::vector<const Factor*>& factors, const Assignment& assignment) {
  Cost sum = 0;
  for (const Factor* factor : factors) {
    size_t index = 0;
    for (size_t k = 0; k < factor->scope.size(); ++k)
      index = index * static_cast<size_t>(factor->dims[k]) + static_cast<size_t>(assignment[factor->scope[k]]);
    sum += factor->table[index];
  }
  return sum;
}

// The definition, entry by entry: min over var of the factors' sum at every result entry.
Cost reference_entry(const std::vector<const Factor*>& factors, int var, int choices, Assignment assignment) {
  Cost best = kInfinity;
  for (int x = 0; x < choices; ++x) {
    assignment[var] = x;
    best = std::min(best, sum_at(factors, assignment));
  }
  return best;
}

bool same(Cost a, Cost b) { return a == b || std::abs(a - b) <= 1e-12 * std::abs(b); }

void check_against_definition(const std::vector<std::vector<int>>& scopes, int var,
                              const std::vector<int>& candidates, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<Factor> factors;
  for (const auto& scope : scopes) factors.push_back(random_factor(scope, candidates, random));
  std::vector<const Factor*> pointers;
  for (const Factor& factor : factors) pointers.push_back(&factor);
  Choices choices;
  const Factor message = eliminate(pointers, var, candidates, &choices);
  Assignment assignment(candidates.size(), 0);
  size_t mismatches = 0;
  size_t wrong_choices = 0;
  for (size_t out = 0; out < message.table.size(); ++out) {
    size_t rest = out;  // the result entry's digits, last variable fastest
    for (size_t k = message.scope.size(); k-- > 0;) {
      assignment[message.scope[k]] = static_cast<int>(rest % static_cast<size_t>(message.dims[k]));
      rest /= static_cast<size_t>(message.dims[k]);
    }
    // Sums may add the same terms in another order: equal up to rounding, or both forbidden.
    const Cost expected = reference_entry(pointers, var, candidates[var], assignment);
    if (!same(message.table[out], expected)) ++mismatches;
    // The recorded candidate attains that minimum.
    assignment[var] = choices[out];
    if (!same(sum_at(pointers, assignment), expected)) ++wrong_choices;
  }
  CHECK(mismatches == 0);
  CHECK(wrong_choices == 0);
}

}  // namespace

TEST_CASE("elimination matches its definition on tables split into blocks") {
  // Results of 5 * 7 * 9 * 8 entries span several blocks; the factors span leading,
  // middle and trailing result variables, so runs are both contiguous and broadcast.
  const std::vector<int> candidates{5, 7, 6, 9, 8};
  SUBCASE("var in the middle of the scopes") {
    check_against_definition({{0, 1, 2, 3, 4}, {2}, {0, 2}, {2, 4}, {1, 2, 3}, {2, 3}}, 2, candidates, 1);
  }
  SUBCASE("var first, factors lacking the last variable") {
    check_against_definition({{0, 1, 3}, {0, 4}, {0, 2, 3}, {0}}, 0, candidates, 2);
  }
  SUBCASE("var last, no factor spanning the whole result") {
    check_against_definition({{0, 4}, {1, 4}, {2, 3, 4}, {1, 2, 4}}, 4, candidates, 3);
  }
  SUBCASE("var alone: a constant") { check_against_definition({{3}, {3}}, 3, candidates, 4); }
}

TEST_CASE("elimination split over threads matches its definition") {
  // 16^4 entries x 12 candidates: above the work from which blocks go to several threads.
  const std::vector<int> candidates{16, 12, 16, 16, 16};
  check_against_definition({{0, 1, 2}, {1, 3, 4}, {1, 2, 4}, {1}}, 1, candidates, 5);
}

}  // namespace layoutopt::solvers::dp
