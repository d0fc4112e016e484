#include "layoutopt/timing/random_fill.h"

#include "layoutopt/timing/thread_scope.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <span>
#include <vector>

using layoutopt::timing::fill_random;

TEST_CASE("fill_random covers [-1, 1) with ordinary numbers") {
  std::vector<float> data(100000, std::nanf(""));
  fill_random(data, 42);
  CHECK(std::all_of(data.begin(), data.end(), [](float x) { return std::isnormal(x) || x == 0.0f; }));
  CHECK(*std::min_element(data.begin(), data.end()) >= -1.0f);
  CHECK(*std::max_element(data.begin(), data.end()) < 1.0f);
  CHECK(*std::min_element(data.begin(), data.end()) < -0.99f);
  CHECK(*std::max_element(data.begin(), data.end()) > 0.99f);
  const double mean = std::accumulate(data.begin(), data.end(), 0.0) / static_cast<double>(data.size());
  CHECK(std::abs(mean) < 0.02);
  const auto zeros = std::count(data.begin(), data.end(), 0.0f);
  CHECK(zeros < 10);
  CHECK(std::set<float>(data.begin(), data.end()).size() > 90000);
}

TEST_CASE("fill_random is deterministic per seed and independent of threads") {
  std::vector<float> first(200000), second(200000), other(200000);
  {
    const layoutopt::timing::ThreadScope one(1);
    fill_random(first, 7);
  }
  {
    const layoutopt::timing::ThreadScope two(2);
    fill_random(second, 7);
  }
  fill_random(other, 8);
  CHECK(first == second);
  CHECK(first != other);
}

TEST_CASE("fill_random writes exactly its span, an empty one included") {
  const float untouched = -7.0f;  // outside fill_random's [-1, 1)
  std::vector<float> buffer(1000, untouched);
  fill_random(std::span<float>(buffer).subspan(100, 800), 3);
  fill_random(std::span<float>(buffer).subspan(950, 0), 3);
  for (size_t i = 0; i < buffer.size(); ++i) {
    CAPTURE(i);
    const bool inside = i >= 100 && i < 900;
    CHECK((buffer[i] == untouched) == !inside);
  }
}
