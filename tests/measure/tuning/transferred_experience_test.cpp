#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "layoutopt/tuning/task_tuner.h"
#include "layoutopt/tuning/transferred_experience.h"
#include "layoutopt/tuning/tuning_session.h"
#include "layoutopt/graph/zoo/zoo.h"
#include "tuning_fixtures.h"

using namespace layoutopt::tuning;
using layoutopt::testing::FakeMeasurer;
using layoutopt::testing::small_conv_task;
using layoutopt::testing::proposed_costs;

namespace {

constexpr const char* kTarget = "llvm -mcpu=test";

// Records of `task` as a session on this host would have written them.
std::vector<MeasureRecord> tuned_records(const TuningTask& task, int64_t trials) {
  SessionOptions options;
  options.target = kTarget;
  options.trials = trials;
  options.tuner.random_warmup = 8;
  options.tuner.model.rounds = 20;
  std::vector<MeasureRecord> log;
  FakeMeasurer measurer;
  (void)tune_tasks({task}, {}, measurer, [&](const MeasureRecord& r) { log.push_back(r); }, options);
  return log;
}

}  // namespace

TEST_CASE("every task a zoo network extracts is rebuilt from its key alone") {
  for (const char* name : {"resnet-50", "mobilenet-v2", "inception-v3", "squeezenet-1.1"}) {
    CAPTURE(name);
    for (const TuningTask& task : extract_tasks(layoutopt::graph::zoo::build(name))) {
      const std::optional<TuningTask> rebuilt = task_of_key(task.task_key());
      REQUIRE(rebuilt);
      CHECK(rebuilt->task_key() == task.task_key());
      CHECK(rebuilt->op.space().size() == task.op.space().size());
      CHECK(rebuilt->op.flops() == task.op.flops());
    }
  }
}

TEST_CASE("a key that describes no workload rebuilds no task") {
  TaskKey key = small_conv_task().task_key();
  key.weight = {32, 32, 3};  // not a 2-D filter
  CHECK_FALSE(task_of_key(key));
  key = small_conv_task().task_key();
  key.weight[1] = 5;  // input channels per group that match no grouping of 32 channels
  CHECK_FALSE(task_of_key(key));
}

TEST_CASE("foreign records become rows of the shared model; own, failed and other-target ones do not") {
  const TuningTask own = small_conv_task(32);
  const TuningTask other = small_conv_task(64);
  std::vector<MeasureRecord> history = tuned_records(other, 24);
  const std::vector<MeasureRecord> own_records = tuned_records(own, 10);
  history.insert(history.end(), own_records.begin(), own_records.end());
  history[0].result.error_no = 1;  // a failed measurement
  history[1].target = "llvm -mcpu=elsewhere";
  TuningExperience experience;
  CHECK(add_foreign_experience(experience, {own}, history, kTarget) == 22);
  CHECK(experience.rows() == 22);
}

TEST_CASE("a fresh task's first batch lands near its optimum when the log holds another network's task") {
  const TuningTask fresh = small_conv_task(64);
  const std::vector<MeasureRecord> history = tuned_records(small_conv_task(32), 64);
  TunerOptions options;
  options.random_warmup = 8;
  options.explore_share = 0;
  options.model.rounds = 20;
  TuningExperience experience(options.model);
  REQUIRE(add_foreign_experience(experience, {fresh}, history, kTarget) == 64);
  TaskTuner guided(fresh, options, &experience);
  TaskTuner alone(fresh, options);
  const std::vector<double> guided_costs = proposed_costs(guided, fresh);
  const std::vector<double> random_costs = proposed_costs(alone, fresh);
  CHECK(guided_costs[guided_costs.size() / 2] < random_costs[random_costs.size() / 2]);
  CHECK(guided_costs.front() <= random_costs.front());
}

TEST_CASE("a session trains its shared model on the log's records of other tasks before its first trial") {
  const TuningTask fresh = small_conv_task(64);
  const std::vector<MeasureRecord> history = tuned_records(small_conv_task(32), 40);
  SessionOptions options;
  options.target = kTarget;
  options.trials = 8;
  options.tuner.random_warmup = 8;
  options.tuner.model.rounds = 20;
  FakeMeasurer measurer;
  const SessionResult result = tune_tasks({fresh}, history, measurer, [](const MeasureRecord&) {}, options);
  CHECK(result.transferred_records == 40);
  CHECK(result.tasks[0].resumed == 0);  // nothing of its own was in the log
  options.target = "llvm -mcpu=elsewhere";
  CHECK(tune_tasks({fresh}, history, measurer, [](const MeasureRecord&) {}, options).transferred_records == 0);
}
