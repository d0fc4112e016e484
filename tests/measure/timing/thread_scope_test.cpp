#include "layoutopt/timing/thread_scope.h"

#include <doctest/doctest.h>
#include <omp.h>

using layoutopt::timing::ThreadScope;

TEST_CASE("a thread scope sets and restores the OpenMP thread count") {
  const int before = omp_get_max_threads();
  {
    const ThreadScope scope(3);
    CHECK(scope.threads() == 3);
    CHECK(omp_get_max_threads() == 3);
    int team = 0;
#pragma omp parallel
#pragma omp single
    team = omp_get_num_threads();
    CHECK(team == 3);
  }
  CHECK(omp_get_max_threads() == before);
}

TEST_CASE("a non-positive thread count keeps the current setting") {
  const int before = omp_get_max_threads();
  const ThreadScope scope(0);
  CHECK(scope.threads() == before);
  CHECK(omp_get_max_threads() == before);
}
