#include "layoutopt/solvers/matrix_pool.h"

#include <doctest/doctest.h>

#include "test_problems.h"

namespace layoutopt::solvers {

TEST_CASE("equal matrices are interned into one shared allocation") {
  MatrixPool pool;
  const MatrixPtr a = pool.intern(testing::mat({{0, 1}, {2, 0}}));
  const MatrixPtr b = pool.intern(testing::mat({{0, 1}, {2, 0}}));
  const MatrixPtr c = pool.intern(testing::mat({{0, 1}, {2, 3}}));
  const MatrixPtr d = pool.intern(testing::mat({{0, 1, 2, 0}}));  // same data, other shape
  CHECK(a.get() == b.get());
  CHECK(a.get() != c.get());
  CHECK(a.get() != d.get());
  CHECK(pool.size() == 3);
}

}  // namespace layoutopt::solvers
