// The measurement farm with a scripted transport (workers of set speeds on a simulated clock,
// some dying) and with worker threads: balance, records, transform passes, lost workers.

#include <doctest/doctest.h>

#include <limits>
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "layoutopt/distributed/measurement_farm.h"
#include "layoutopt/distributed/thread_transport.h"
#include "layoutopt/tuning/default_configs.h"
#include "layoutopt/tuning/record_log.h"
#include "layoutopt/tuning/tuning_session.h"
#include "tuning_fixtures.h"

namespace layoutopt::distributed {

namespace {

// Worker w takes seconds_per_config[w] simulated seconds per config; wait() returns the
// assignment that finishes first (the lower worker on a tie). A worker with a death count
// reports WorkerLost instead of the result after measuring that many configs.
class ScriptedTransport : public Transport {
 public:
  ScriptedTransport(const std::vector<tuning::TuningTask>& tasks, std::vector<double> seconds_per_config)
      : tasks_(tasks), seconds_(std::move(seconds_per_config)), in_flight_(seconds_.size()), done_(seconds_.size(), 0),
        dies_after_(seconds_.size()) {}

  void die_after(int worker, int64_t configs) { dies_after_[static_cast<size_t>(worker)] = configs; }
  [[nodiscard]] int workers() const override { return static_cast<int>(seconds_.size()); }
  void assign(int worker, const Assignment& work) override {
    const auto w = static_cast<size_t>(worker);
    REQUIRE_FALSE(in_flight_[w].has_value());  // the farm never gives a busy worker more
    in_flight_[w] = std::make_pair(work, now_ + seconds_[w]);
  }
  [[nodiscard]] std::optional<WorkerEvent> wait(std::chrono::milliseconds) override {
    std::optional<size_t> first;
    for (size_t w = 0; w < in_flight_.size(); ++w)
      if (in_flight_[w] && (!first || in_flight_[w]->second < in_flight_[*first]->second)) first = w;
    if (!first) return std::nullopt;
    const Assignment work = in_flight_[*first]->first;
    now_ = in_flight_[*first]->second;
    in_flight_[*first].reset();
    if (dies_after_[*first] && done_[*first] == *dies_after_[*first]) return WorkerLost{static_cast<int>(*first)};
    ++done_[*first];
    return Completion{static_cast<int>(*first), work, perform(work)};
  }
  [[nodiscard]] double now() const { return now_; }
  [[nodiscard]] bool busy(int worker) const { return in_flight_[static_cast<size_t>(worker)].has_value(); }

  testing::FakeMeasurer measurer;  ///< every config measured, once each
  std::map<costs::TransformKey, int> passes;  ///< passes timed, by key

 private:
  // A config measured by the fake measurer; a transform pass taking 1, 2, 3 ms on its first,
  // second and third pass, times the key's element count in thousands.
  WorkResult perform(const Assignment& work) {
    if (const auto* config = std::get_if<ConfigWork>(&work))
      return measurer.measure(tasks_.at(static_cast<size_t>(config->task)), config->config);
    const costs::TransformKey& key = std::get<TransformPass>(work).key;
    const double ms = ++passes[key] * static_cast<double>(key.shape[1]) / 1000.0;
    return costs::TransformEntry{"llvm -mcpu=worker", 1, key, ms, ms, ms, 5, 1.7e9};
  }

  const std::vector<tuning::TuningTask>& tasks_;
  std::vector<double> seconds_;
  std::vector<std::optional<std::pair<Assignment, double>>> in_flight_;
  std::vector<int64_t> done_;
  std::vector<std::optional<int64_t>> dies_after_;
  double now_ = 0;
};

std::vector<tuning::TuningTask> two_tasks() { return {testing::small_conv_task(32), testing::small_conv_task(16, 2)}; }

tuning::SessionOptions options(int64_t trials) {
  tuning::SessionOptions o;
  o.target = "llvm -mcpu=test";
  o.trials = trials;
  o.tuner.random_warmup = 8;
  return o;
}

using Measured = std::vector<std::pair<tuning::TaskKey, int64_t>>;

Measured tune(const std::vector<tuning::TuningTask>& tasks, tuning::Measurer& measurer, int64_t trials,
              int64_t random_warmup = 8) {
  Measured records;
  tuning::SessionOptions session = options(trials);
  session.tuner.random_warmup = random_warmup;
  const tuning::SessionResult result = tuning::tune_tasks(
      tasks, {}, measurer, [&](const tuning::MeasureRecord& r) { records.emplace_back(*r.task, r.config_index); },
      session);
  CHECK(result.new_trials == trials);
  return records;
}

}  // namespace

TEST_CASE("farm: within the random warm-up, workers measure exactly the configs one measurer would") {
  const std::vector<tuning::TuningTask> tasks = two_tasks();
  testing::FakeMeasurer alone;
  // Two batches of 8, one per task, both random: no model ranks configs before 16 results.
  const int64_t warmup = 16;
  Measured single = tune(tasks, alone, warmup, warmup);
  ScriptedTransport transport(tasks, {1.0, 1.0});
  MeasurementFarm farm(tasks, transport);
  Measured farmed = tune(tasks, farm, warmup, warmup);
  std::ranges::sort(single);
  std::ranges::sort(farmed);
  CHECK(farmed == single);
  CHECK(farm.statistics().measured == std::vector<int64_t>{8, 8});
  CHECK(transport.now() == doctest::Approx(8.0));  // half the time one worker would take
}

TEST_CASE("farm: the next batch is proposed while the last configs of one are measured") {
  // Batch by batch, the faster worker idles at each batch's end while the slower one measures
  // its last config; a stream hands it the next batch's first config instead.
  const std::vector<tuning::TuningTask> tasks = two_tasks();
  const std::vector<double> speeds{1.0, 1.5};
  const int64_t trials = 64;
  ScriptedTransport batched_transport(tasks, speeds);
  MeasurementFarm batched(tasks, batched_transport);
  struct BatchByBatch : tuning::Measurer {  // the base class's stream: one batch at a time
    explicit BatchByBatch(MeasurementFarm& farm) : farm_(farm) {}
    tuning::MeasureResult measure(const tuning::TuningTask& task, int64_t index) override {
      return farm_.measure(task, index);
    }
    void measure_batch(const tuning::TuningTask& task, const std::vector<int64_t>& indices,
                       const ResultCallback& on_result) override {
      farm_.measure_batch(task, indices, on_result);
    }
    MeasurementFarm& farm_;
  } batch_by_batch(batched);
  CHECK(tune(tasks, batch_by_batch, trials).size() == trials);
  ScriptedTransport streamed_transport(tasks, speeds);
  MeasurementFarm streamed(tasks, streamed_transport);
  CHECK(tune(tasks, streamed, trials).size() == trials);
  const double ideal = static_cast<double>(trials) / (1 / speeds[0] + 1 / speeds[1]);
  CHECK(streamed_transport.now() < batched_transport.now());
  CHECK(streamed_transport.now() <= ideal + speeds[1]);
}

TEST_CASE("farm: the search runs only while the worker sharing its CPUs is idle") {
  const std::vector<tuning::TuningTask> tasks = two_tasks();
  ScriptedTransport transport(tasks, {1.0, 1.3, 1.7});
  MeasurementFarm farm(tasks, transport, 0);
  int64_t next_config = 0, searches = 0, reported = 0;
  farm.measure_stream(
      [&]() -> std::optional<tuning::Batch> {
        CHECK_FALSE(transport.busy(0));
        if (searches++ == 6) return std::nullopt;
        std::vector<int64_t> batch(8);
        for (int64_t& config : batch) config = next_config++;
        return tuning::Batch{&tasks[1], 1, batch};
      },
      [&](size_t task_id, int64_t, const tuning::MeasureResult&) {
        CHECK(task_id == 1);
        ++reported;
        return true;
      });
  CHECK(reported == 48);
  CHECK(searches == 7);
  CHECK(farm.statistics().measured[1] > 0);
  CHECK(farm.statistics().measured[2] > 0);
}

TEST_CASE("farm: configs measured outside the search (default configs) are in flight at once") {
  const std::vector<tuning::TuningTask> tasks{testing::small_conv_task(32), testing::small_conv_task(16),
                                              testing::small_conv_task(8), testing::small_conv_task(64)};
  ScriptedTransport transport(tasks, {1.0, 1.0});
  MeasurementFarm farm(tasks, transport, 0);
  int64_t sunk = 0;
  const std::vector<tuning::MeasureRecord> measured = tuning::measure_default_configs(
      tasks, {}, farm, "llvm -mcpu=test", [&](const tuning::MeasureRecord&) { ++sunk; });
  CHECK(measured.size() == tasks.size());
  CHECK(sunk == static_cast<int64_t>(tasks.size()));
  CHECK(farm.statistics().measured == std::vector<int64_t>{2, 2});
  CHECK(transport.now() == doctest::Approx(2.0));  // two at a time
  std::set<tuning::TaskKey> keys;
  for (const tuning::MeasureRecord& record : measured) {
    keys.insert(*record.task);
    const auto task = std::ranges::find_if(tasks, [&](const tuning::TuningTask& t) { return t.task_key() == *record.task; });
    REQUIRE(task != tasks.end());
    CHECK(record.config_index == task->op.default_index());
  }
  CHECK(keys.size() == tasks.size());
}

TEST_CASE("farm: a slower worker is given fewer configs") {
  const std::vector<tuning::TuningTask> tasks = two_tasks();
  ScriptedTransport transport(tasks, {1.0, 3.0});
  MeasurementFarm farm(tasks, transport);
  const Measured farmed = tune(tasks, farm, 48);
  CHECK(farmed.size() == 48);
  const std::vector<int64_t>& measured = farm.statistics().measured;
  CHECK(measured[0] + measured[1] == 48);
  CHECK(measured[0] >= 2 * measured[1]);
  CHECK(measured[1] > 0);
  CHECK(transport.now() < 48 * 1.0);  // faster than the fast worker alone
}

TEST_CASE("farm: a lost worker's config is measured by another and every record arrives once") {
  const std::vector<tuning::TuningTask> tasks = two_tasks();
  testing::ScratchFile log("farm.jsonl");
  ScriptedTransport transport(tasks, {1.0, 1.0, 1.0});
  transport.die_after(1, 3);
  MeasurementFarm farm(tasks, transport);
  {
    tuning::RecordWriter writer(log.path());
    const tuning::SessionResult result = tuning::tune_tasks(
        tasks, {}, farm, [&](const tuning::MeasureRecord& r) { writer.append(r); }, options(30));
    CHECK(result.new_trials == 30);
  }
  CHECK(farm.statistics().lost == std::vector<bool>{false, true, false});
  CHECK(farm.statistics().reissued == 1);
  CHECK(farm.statistics().measured[1] == 3);
  const tuning::LoadedLog loaded = tuning::load_record_log(log.path());
  CHECK(loaded.issues.empty());
  REQUIRE(loaded.records.size() == 30);
  std::set<std::pair<tuning::TaskKey, int64_t>> distinct;
  for (const tuning::MeasureRecord& r : loaded.records) distinct.emplace(*r.task, r.config_index);
  CHECK(distinct.size() == 30);
  CHECK(transport.measurer.calls.size() == 30);  // the lost config was measured once, by another worker
  for (const auto& measured : transport.measurer.calls) CHECK(measured.second == 1);
}

TEST_CASE("farm: every worker lost is an error, not a hang") {
  const std::vector<tuning::TuningTask> tasks = two_tasks();
  ScriptedTransport transport(tasks, {1.0});
  transport.die_after(0, 2);
  MeasurementFarm farm(tasks, transport);
  CHECK_THROWS_AS(tune(tasks, farm, 10), std::runtime_error);
}

namespace {

// Measures like FakeMeasurer, but throws on its `fail_at`-th call (a worker that breaks).
class BreakingMeasurer : public testing::FakeMeasurer {
 public:
  explicit BreakingMeasurer(int fail_at) : fail_at_(fail_at) {}
  tuning::MeasureResult measure(const tuning::TuningTask& task, int64_t index) override {
    if (++count_ == fail_at_) throw std::runtime_error("worker broke");
    return FakeMeasurer::measure(task, index);
  }

 private:
  int fail_at_;
  int count_ = 0;
};

}  // namespace

TEST_CASE("farm over worker threads: a broken worker's config goes to the other") {
  const std::vector<tuning::TuningTask> tasks = two_tasks();
  testing::FakeMeasurer steady;
  BreakingMeasurer breaking(1);  // the first batch gives each idle worker a config
  WorkBench steady_bench(tasks, steady, timing::TimingPolicy{}, "llvm -mcpu=test");
  WorkBench breaking_bench(tasks, breaking, timing::TimingPolicy{}, "llvm -mcpu=test");
  Measured farmed;
  FarmStatistics statistics;
  {
    ThreadTransport transport({&steady_bench, &breaking_bench});
    MeasurementFarm farm(tasks, transport);
    farmed = tune(tasks, farm, 32);
    statistics = farm.statistics();
  }
  CHECK(farmed.size() == 32);
  CHECK(std::set<std::pair<tuning::TaskKey, int64_t>>(farmed.begin(), farmed.end()).size() == 32);
  CHECK(statistics.measured == std::vector<int64_t>{32, 0});
  CHECK(statistics.lost == std::vector<bool>{false, true});
  CHECK(statistics.reissued == 1);
  CHECK(steady.calls.size() == 32);
}

}  // namespace layoutopt::distributed

namespace layoutopt::distributed {

namespace {

std::vector<costs::TransformKey> channel_keys(int count) {
  const layout::Layout plain = layout::Layout::parse("NCHW");
  const layout::Layout blocked = layout::Layout::parse("NCHW16c");
  std::vector<costs::TransformKey> keys;
  for (int k = 1; k <= count; ++k) keys.push_back({{1, 16 * k, 8, 8}, plain, blocked});
  return keys;
}

}  // namespace

TEST_CASE("farm: transform passes spread over the workers, each entry the median of its three passes") {
  const std::vector<tuning::TuningTask> tasks = two_tasks();
  const std::vector<costs::TransformKey> keys = channel_keys(6);
  ScriptedTransport transport(tasks, {1.0, 1.0});
  MeasurementFarm farm(tasks, transport);
  std::map<costs::TransformKey, int> reported;
  const std::vector<costs::TransformEntry> entries =
      farm.time(keys, nullptr, [&](const costs::TransformEntry& entry) { ++reported[entry.key]; });
  REQUIRE(entries.size() == keys.size());
  for (size_t k = 0; k < keys.size(); ++k) {
    CAPTURE(k);
    CHECK(entries[k].key == keys[k]);
    CHECK(transport.passes[keys[k]] == costs::kTransformPasses);
    CHECK(reported[keys[k]] == costs::kTransformPasses);  // after every pass, as a local timer does
    // Passes of 1, 2 and 3 times the key's cost: the median is the second.
    CHECK(entries[k].median_ms == doctest::Approx(2.0 * static_cast<double>(keys[k].shape[1]) / 1000.0));
    CHECK(entries[k].repeats == 5 * costs::kTransformPasses);
  }
  CHECK(farm.statistics().measured == std::vector<int64_t>{9, 9});
  CHECK(transport.now() == doctest::Approx(9.0));  // half the 18 s one worker would take
}

TEST_CASE("farm: a lost worker's transform pass is timed by another") {
  const std::vector<tuning::TuningTask> tasks = two_tasks();
  const std::vector<costs::TransformKey> keys = channel_keys(4);
  ScriptedTransport transport(tasks, {1.0, 1.0});
  transport.die_after(1, 2);
  MeasurementFarm farm(tasks, transport);
  const std::vector<costs::TransformEntry> entries = farm.time(keys, nullptr, {});
  for (const costs::TransformKey& key : keys) CHECK(transport.passes[key] == costs::kTransformPasses);
  CHECK(entries.size() == keys.size());
  CHECK(farm.statistics().lost == std::vector<bool>{false, true});
  CHECK(farm.statistics().reissued == 1);
  CHECK(farm.statistics().measured[0] + farm.statistics().measured[1] == 4 * costs::kTransformPasses);
}

}  // namespace layoutopt::distributed
