// The builder half of a measurement: a batch's kernels compiled on several threads before any
// is timed (built_config.h), and KernelMeasurer's batches, which build first and time after.

#include <doctest/doctest.h>

#include <variant>
#include <vector>

#include "layoutopt/timing/cost_policy.h"
#include "layoutopt/tuning/built_config.h"
#include "layoutopt/tuning/kernel_measurer.h"
#include "tuning_fixtures.h"

namespace layoutopt::tuning {

namespace {

// A few configs spread over the task's searched space, and one past its end (which every
// builder must report as an instantiation error, not throw).
std::vector<int64_t> spread_indices(const TuningTask& task, int64_t count) {
  std::vector<int64_t> indices;
  const int64_t size = task.op.space().size();
  for (int64_t i = 0; i < count; ++i) indices.push_back(i * (size / count));
  indices.push_back(size);
  return indices;
}

}  // namespace

TEST_CASE("a batch built on several threads is the configs built one by one, failures included") {
  const TuningTask task = testing::small_conv_task(16);
  const std::vector<int64_t> indices = spread_indices(task, 6);
  const std::vector<BuiltConfig> built = build_configs(task, indices, 3);
  REQUIRE(built.size() == indices.size());
  int compiled = 0;
  for (size_t i = 0; i < indices.size(); ++i) {
    const BuiltConfig alone = build_config(task, indices[i]);
    CAPTURE(indices[i]);
    REQUIRE(built[i].kernel_or_failure.index() == alone.kernel_or_failure.index());
    if (const auto* kernel = std::get_if<kernels::Kernel>(&built[i].kernel_or_failure)) {
      // The same cached kernel: the builders compiled it, the second request found it.
      CHECK(kernel->name() == std::get<kernels::Kernel>(alone.kernel_or_failure).name());
      CHECK(built[i].seconds > 0);
      ++compiled;
    } else {
      const auto& failure = std::get<MeasureResult>(built[i].kernel_or_failure);
      CHECK(failure.error_no == static_cast<int>(MeasureErrorNo::instantiation_error));
      CHECK(!failure.error_message.empty());
    }
  }
  CHECK(compiled >= 3);
  CHECK(std::holds_alternative<MeasureResult>(built.back().kernel_or_failure));  // past the space's end
  CHECK(build_configs(task, {}, 2).empty());
}

TEST_CASE("a measured batch reports every config in order, built ones timed, failures passed on") {
  const TuningTask task = testing::small_conv_task(16);
  const std::vector<int64_t> indices = spread_indices(task, 3);
  KernelMeasurer measurer(timing::cost_policy(2, 1.0));
  std::vector<int64_t> reported;
  std::vector<MeasureResult> results;
  measurer.measure_batch(task, indices, [&](int64_t index, const MeasureResult& result) {
    reported.push_back(index);
    results.push_back(result);
    return true;
  });
  CHECK(reported == indices);
  REQUIRE(results.size() == indices.size());
  for (size_t i = 0; i + 1 < results.size(); ++i) {
    CAPTURE(indices[i]);
    if (!results[i].ok()) continue;  // a schedule the shape refuses
    CHECK(results[i].costs_s.front() > 0);
    CHECK(results[i].all_cost_s > results[i].costs_s.front());  // compile and timing both counted
  }
  CHECK(results.back().error_no == static_cast<int>(MeasureErrorNo::instantiation_error));

  // Stopping after the first result starts no further config.
  reported.clear();
  measurer.measure_batch(task, indices, [&](int64_t index, const MeasureResult&) {
    reported.push_back(index);
    return false;
  });
  CHECK(reported == std::vector<int64_t>{indices.front()});
}

}  // namespace layoutopt::tuning
