#include <doctest/doctest.h>

#include "layoutopt/evaluation/prediction_check.h"

using namespace layoutopt::evaluation;

namespace {

// A densenet-like run: convs dominate, transforms and batch norms matter, concats are tiny.
std::vector<StepTypeTotals> run_with(double conv, double winograd, double transform, double batch_norm) {
  return {{"kernel conv2d", 183, 26.0 * conv, 26.0},
          {"kernel winograd_conv2d", 18, 5.5 * winograd, 5.5},
          {"transform", 188, 2.9 * transform, 2.9},
          {"kernel batch_norm", 102, 2.6 * batch_norm, 2.6},
          {"kernel concat", 98, 0.046, 0.0}};
}

}  // namespace

TEST_CASE("step types near their prices: the prices hold") {
  const PredictionCheck check = check_predictions(run_with(0.98, 0.97, 1.03, 1.01));
  CHECK(check.prices_hold());
  CHECK_FALSE(check.host_moved());
  CHECK(check.misses().empty());
  CHECK(check.verdict() == "every step type within 15% of its price (0.97-1.03x)");
  // The concats, 0.1% of the run and priced at nothing, do not decide.
  CHECK(check.light_types == std::vector<std::string>{"kernel concat"});
  CHECK(check.weighty.size() == 4);
}

TEST_CASE("every step type off by one factor: the host moved, not the prices") {
  const PredictionCheck check = check_predictions(run_with(0.69, 0.70, 0.73, 0.74));
  CHECK_FALSE(check.prices_hold());
  CHECK(check.host_moved());
  CHECK(check.misses().empty());
  CHECK(check.run_ratio == doctest::Approx((26 * 0.69 + 5.5 * 0.70 + 2.9 * 0.73 + 2.6 * 0.74) / 37.0));
  CHECK(check.verdict() ==
        "every step type 0.69-0.74x its price, the run 0.70x: the whole run moved, not one price (the host's speed "
        "since the plan was priced, or prices taken outside the network)");
}

TEST_CASE("one step type off on its own: its price is wrong") {
  const PredictionCheck check = check_predictions(run_with(1.0, 1.02, 2.1, 0.99));
  CHECK_FALSE(check.prices_hold());
  CHECK_FALSE(check.host_moved());
  REQUIRE(check.misses().size() == 1);
  CHECK(check.misses()[0].type == "transform");
  CHECK(check.verdict() == "step types off their price: transform 2.10x (the run 1.09x)");
}

TEST_CASE("a step type off its price in a run near its own is a miss, though near the run's ratio") {
  // transform 0.80x in a run at 0.92x: 20% off its price, 13% off the run's ratio.
  const PredictionCheck check = check_predictions(run_with(0.93, 0.93, 0.80, 0.93));
  CHECK_FALSE(check.prices_hold());
  CHECK_FALSE(check.host_moved());
  REQUIRE(check.misses().size() == 1);
  CHECK(check.misses()[0].type == "transform");
  CHECK(check.verdict() == "step types off their price: transform 0.80x (the run 0.92x)");
}

TEST_CASE("a step type the host's change did not move alike is named beside it") {
  // A slow spell on 2026-11-28 (densenet-201): convs and transforms 1.3x, batch norms 1.08x.
  const PredictionCheck check = check_predictions(run_with(1.35, 1.34, 1.31, 1.08));
  CHECK(check.host_moved());
  REQUIRE(check.misses().size() == 1);
  CHECK(check.misses()[0].type == "kernel batch_norm");
  CHECK(check.verdict() ==
        "every step type 1.08-1.35x its price, the run 1.33x: the whole run moved, not one price (the host's speed "
        "since the plan was priced, or prices taken outside the network); off the run's ratio: kernel batch_norm 1.08x");
}

TEST_CASE("a weighty step type priced at nothing is a miss, never a division by zero") {
  std::vector<StepTypeTotals> types = run_with(1, 1, 1, 1);
  types.push_back({"fallback pad", 3, 4.0, 0.0});
  const PredictionCheck check = check_predictions(types);
  REQUIRE(check.misses().size() == 1);
  CHECK(check.misses()[0].type == "fallback pad");
  CHECK(check.verdict().find("fallback pad unpriced") != std::string::npos);
  // Also when the host moved: the range reads the priced types only.
  std::vector<StepTypeTotals> slow = run_with(1.4, 1.4, 1.4, 1.4);
  slow.push_back({"fallback pad", 3, 4.0, 0.0});
  CHECK(check_predictions(slow).verdict().starts_with("every step type 1.40-1.40x its price, the run 1.40x"));
}

TEST_CASE("the tolerance and the weight threshold are the caller's") {
  const std::vector<StepTypeTotals> types = run_with(1.08, 1.0, 1.0, 1.0);
  CHECK(check_predictions(types, 0.15).prices_hold());
  CHECK_FALSE(check_predictions(types, 0.05).prices_hold());
  CHECK(check_predictions(types, 0.05).verdict().find("within 5%") == std::string::npos);
  // Transforms and batch norms at 3x make up a third of the run; with a 20% threshold only
  // the convs (54% of it) decide.
  CHECK_FALSE(check_predictions(run_with(1, 1, 3, 3), 0.15, 0.02).prices_hold());
  CHECK(check_predictions(run_with(1, 1, 3, 3), 0.15, 0.20).prices_hold());
  CHECK(check_predictions({}).verdict() == "no step type has a price to check");
}
