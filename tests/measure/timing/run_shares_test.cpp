#include "layoutopt/timing/run_shares.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <vector>

using layoutopt::timing::run_shares;
using layoutopt::timing::RunShares;
using layoutopt::timing::step_medians;

TEST_CASE("run shares add up to the median run when every run has one slow step") {
  // Three steps of 1, 2 and 3 ms; each of the five runs has a different step 2 ms slow, so
  // every step's median is its fast time (sum 6) but every run takes 8 ms.
  const std::vector<std::vector<double>> runs{{3, 2, 3}, {1, 4, 3}, {1, 2, 5}, {3, 2, 3}, {1, 4, 3}};
  const RunShares shares = run_shares(runs);
  CHECK(shares.run_ms == doctest::Approx(8.0));
  REQUIRE(shares.step_ms.size() == 3);
  CHECK(std::accumulate(shares.step_ms.begin(), shares.step_ms.end(), 0.0) == doctest::Approx(8.0));
  // The medians' proportions 1 : 2 : 3 are kept.
  CHECK(shares.step_ms[0] == doctest::Approx(8.0 / 6.0));
  CHECK(shares.step_ms[1] == doctest::Approx(16.0 / 6.0));
  CHECK(shares.step_ms[2] == doctest::Approx(24.0 / 6.0));
}

TEST_CASE("steady runs keep each step's median") {
  const std::vector<std::vector<double>> runs{{0.5, 1.5}, {0.5, 1.5}, {0.5, 1.5}};
  const RunShares shares = run_shares(runs);
  CHECK(shares.run_ms == doctest::Approx(2.0));
  CHECK(shares.step_ms == std::vector<double>{0.5, 1.5});
}

TEST_CASE("runs that time nothing give zero shares") {
  const RunShares zero = run_shares({{0.0, 0.0}, {0.0, 0.0}});
  CHECK(zero.run_ms == 0.0);
  CHECK(zero.step_ms == std::vector<double>{0.0, 0.0});
  CHECK(run_shares({{}, {}}).step_ms.empty());
}

TEST_CASE("run shares refuse no runs and ragged runs") {
  CHECK_THROWS_AS((void)run_shares({}), std::invalid_argument);
  CHECK_THROWS_WITH_AS((void)run_shares({{1.0, 2.0}, {1.0}}), "run_shares: a run timed 1 steps, another 2",
                       std::invalid_argument);
}

TEST_CASE("step medians: a step some run did not record has none") {
  const double unrecorded = std::numeric_limits<double>::quiet_NaN();
  const std::vector<std::vector<double>> runs{{1.0, 5.0, unrecorded}, {3.0, 4.0, 2.0}, {2.0, 6.0, 2.0}};
  const std::vector<double> medians = step_medians(runs, 3);
  REQUIRE(medians.size() == 3);
  CHECK(medians[0] == 2.0);
  CHECK(medians[1] == 5.0);
  CHECK(std::isnan(medians[2]));
  CHECK(std::isnan(step_medians({{1.0}, {}}, 1)[0]));  // a run without the step
}
