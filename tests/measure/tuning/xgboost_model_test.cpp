#include "layoutopt/tuning/xgboost_model.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

using layoutopt::tuning::XGBoostError;
using layoutopt::tuning::XGBoostModel;

namespace {

// Synthetic "throughput" of 3 features with interactions and a cliff, like register spills.
float synthetic(float a, float b, float c) {
  const float spill = a * b > 24 ? -1.5F : 0.0F;
  return std::log1p(a) + 0.5F * std::sin(b) - 0.3F * (c - 2) * (c - 2) + spill;
}

std::vector<double> ranks(const std::vector<float>& v) {
  std::vector<size_t> order(v.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return v[x] < v[y]; });
  std::vector<double> r(v.size());
  for (size_t i = 0; i < order.size(); ++i) r[order[i]] = static_cast<double>(i);
  return r;
}

double spearman(const std::vector<float>& x, const std::vector<float>& y) {
  const auto rx = ranks(x), ry = ranks(y);
  const double n = static_cast<double>(x.size());
  double d2 = 0;
  for (size_t i = 0; i < rx.size(); ++i) d2 += (rx[i] - ry[i]) * (rx[i] - ry[i]);
  return 1 - 6 * d2 / (n * (n * n - 1));
}

struct Data {
  std::vector<float> rows, labels;
};

Data sample(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> a(1, 8), b(0, 6), c(0, 4);
  Data d;
  for (size_t i = 0; i < n; ++i) {
    const float x = a(rng), y = b(rng), z = c(rng);
    d.rows.insert(d.rows.end(), {x, y, z});
    d.labels.push_back(synthetic(x, y, z));
  }
  return d;
}

}  // namespace

TEST_CASE("XGBoost learns a synthetic cost function: rank correlation > 0.8 on held-out points") {
  const Data train = sample(300, 1), test = sample(200, 2);
  XGBoostModel model({.rounds = 60});
  model.fit(train.rows, 3, train.labels);
  const std::vector<float> predicted = model.predict(test.rows, 3);
  REQUIRE(predicted.size() == test.labels.size());
  CHECK(spearman(predicted, test.labels) > 0.8);
}

TEST_CASE("XGBoostModel reports misuse and XGBoost's own errors as exceptions") {
  XGBoostModel model;
  const std::vector<float> rows{1, 2, 3, 4}, labels{1, 2};
  CHECK_FALSE(model.trained());
  CHECK_THROWS_AS((void)model.predict(rows, 2), std::logic_error);
  CHECK_THROWS_AS(model.fit(rows, 3, labels), std::invalid_argument);
  XGBoostModel broken({.objective = "reg:no-such-objective"});
  CHECK_THROWS_AS(broken.fit(rows, 2, labels), XGBoostError);
}

TEST_CASE("XGBoostModel moves its booster") {
  XGBoostModel model({.rounds = 3});
  const std::vector<float> rows{1, 2, 3, 4}, labels{1, 2};
  model.fit(rows, 2, labels);
  XGBoostModel moved = std::move(model);
  CHECK(moved.trained());
  CHECK(moved.predict(rows, 2).size() == 2);
}
