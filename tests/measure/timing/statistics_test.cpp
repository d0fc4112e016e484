#include "layoutopt/timing/statistics.h"

#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

using layoutopt::timing::quantile_of_sorted;
using layoutopt::timing::summarize;
using layoutopt::timing::Summary;

TEST_CASE("summary of an odd-sized sample") {
  // Sorted: 1 2 3 4 100; deviations from 3: 0 1 1 2 97 -> MAD 1.
  const std::vector<double> samples{4, 1, 100, 3, 2};
  const Summary s = summarize(samples);
  CHECK(s.count == 5);
  CHECK(s.min == 1);
  CHECK(s.max == 100);
  CHECK(s.mean == doctest::Approx(22.0));
  CHECK(s.median == 3);
  CHECK(s.q1 == 2);
  CHECK(s.q3 == 4);
  CHECK(s.iqr() == 2);
  CHECK(s.mad == 1);
}

TEST_CASE("summary of an even-sized sample interpolates") {
  // Sorted: 1 2 3 4 -> median 2.5, quartiles at positions 0.75 and 2.25; |x - 2.5| = 1.5 0.5 0.5 1.5.
  const std::vector<double> samples{3, 1, 4, 2};
  const Summary s = summarize(samples);
  CHECK(s.median == doctest::Approx(2.5));
  CHECK(s.q1 == doctest::Approx(1.75));
  CHECK(s.q3 == doctest::Approx(3.25));
  CHECK(s.mad == doctest::Approx(1.0));
}

TEST_CASE("one sample is its own summary") {
  const std::vector<double> samples{7.5};
  const Summary s = summarize(samples);
  CHECK(s.median == 7.5);
  CHECK(s.min == 7.5);
  CHECK(s.max == 7.5);
  CHECK(s.mad == 0);
  CHECK(s.iqr() == 0);
}

TEST_CASE("quantiles of sorted data") {
  const std::vector<double> sorted{10, 20, 30, 40, 50};
  CHECK(quantile_of_sorted(sorted, 0.0) == 10);
  CHECK(quantile_of_sorted(sorted, 1.0) == 50);
  CHECK(quantile_of_sorted(sorted, 0.1) == doctest::Approx(14.0));
  CHECK_THROWS_AS(quantile_of_sorted(sorted, 1.5), std::invalid_argument);
  CHECK_THROWS_AS(quantile_of_sorted({}, 0.5), std::invalid_argument);
  CHECK_THROWS_WITH_AS(summarize({}), "cannot summarize an empty sample", std::invalid_argument);
}
