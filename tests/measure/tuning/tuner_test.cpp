#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

#include "layoutopt/tuning/config_features.h"
#include "layoutopt/tuning/task_scheduler.h"
#include "layoutopt/tuning/task_tuner.h"
#include "layoutopt/tuning/tuning_session.h"
#include "tuning_fixtures.h"

using namespace layoutopt::tuning;
using layoutopt::testing::FakeMeasurer;
using layoutopt::testing::small_conv_task;
using layoutopt::testing::proposed_costs;
using layoutopt::testing::synthetic_seconds;

namespace {

SessionOptions trial_budget(int64_t trials) {
  SessionOptions options;
  options.target = "llvm -mcpu=test";
  options.trials = trials;
  options.tuner.random_warmup = 8;
  options.tuner.model.rounds = 20;
  return options;
}

double true_optimum(const TuningTask& task) {
  double best = INFINITY;
  for (int64_t i = 0; i < task.op.space().size(); ++i) best = std::min(best, synthetic_seconds(task.op.knobs(i)));
  return best;
}

}  // namespace

TEST_CASE("the tuner proposes distinct unmeasured configs and exhausts the searched space without repeats") {
  const TuningTask task = small_conv_task(4);  // tiny space
  TunerOptions options;
  options.random_warmup = 4;
  options.early_stopping = 0;
  options.model.rounds = 5;
  TaskTuner tuner(task, options);
  FakeMeasurer measurer;
  std::set<int64_t> seen;
  while (!tuner.exhausted()) {
    const auto batch = tuner.propose(7);
    REQUIRE_FALSE(batch.empty());
    for (int64_t index : batch) {
      CHECK(seen.insert(index).second);
      tuner.observe(index, measurer.measure(task, index));
    }
  }
  // Every searched config but those screened out (tiles far beyond the registers, which a
  // host with few registers has even here), and none with a derived knob set (the store
  // block): those are variants that store_variants.h derives.
  CHECK(static_cast<int64_t>(seen.size()) + tuner.screened_out() == task.op.space().searched_size());
  CHECK(task.op.space().searched_size() < task.op.space().size());
  CHECK(std::ranges::all_of(seen, [&](int64_t index) { return task.op.space().searched(index); }));
  CHECK(tuner.propose(3).empty());
}

namespace {

/// The searched configs of `task` whose register tile is far beyond the registers.
std::set<int64_t> far_beyond_registers(const TuningTask& task) {
  std::set<int64_t> far;
  for (int64_t index = 0; index < task.op.space().searched_size(); ++index)  // searched configs come first
    if (tile_far_beyond_registers(task, config_features(task, index))) far.insert(index);
  return far;
}

}  // namespace

TEST_CASE("random search never proposes a tile far beyond the registers and still exhausts the space; a sweep does") {
  const TuningTask task = small_conv_task(64, 1, 4);  // tiles of up to 4 vectors x 4 x 4 pixels
  const std::set<int64_t> far = far_beyond_registers(task);
  REQUIRE_FALSE(far.empty());
  REQUIRE(static_cast<int64_t>(far.size()) < task.op.space().searched_size());
  struct Failing : Measurer {  // no working config: the search stays random throughout
    MeasureResult measure(const TuningTask&, int64_t) override {
      MeasureResult r;
      r.error_no = static_cast<int>(MeasureErrorNo::compile_host);
      return r;
    }
  } measurer;
  TunerOptions options;
  options.early_stopping = 0;
  TaskTuner tuner(task, options);
  int64_t proposed = 0;
  while (!tuner.exhausted()) {
    const std::vector<int64_t> batch = tuner.propose(8);
    REQUIRE_FALSE(batch.empty());
    for (int64_t index : batch) {
      CHECK_FALSE(far.contains(index));
      tuner.observe(index, measurer.measure(task, index));
    }
    proposed += static_cast<int64_t>(batch.size());
  }
  CHECK(tuner.screened_out() == static_cast<int64_t>(far.size()));
  CHECK(proposed + tuner.screened_out() == task.op.space().searched_size());
  CHECK(tuner.propose(8).empty());

  // Without the screen (a sweep of the whole space) they are proposed like any other.
  options.screen_far_tiles = false;
  TaskTuner sweeping(task, options);
  std::set<int64_t> swept;
  while (!sweeping.exhausted())
    for (int64_t index : sweeping.propose(8)) {
      swept.insert(index);
      sweeping.observe(index, measurer.measure(task, index));
    }
  CHECK(sweeping.screened_out() == 0);
  CHECK(static_cast<int64_t>(swept.size()) == task.op.space().searched_size());
  CHECK(std::ranges::includes(swept, far));
}

TEST_CASE("model-ranked search screens its pool: exploration does not reach for tiles beyond the registers") {
  const TuningTask task = small_conv_task(64, 1, 4);
  const std::set<int64_t> far = far_beyond_registers(task);
  REQUIRE_FALSE(far.empty());
  TunerOptions options;
  options.random_warmup = 8;
  options.model.rounds = 20;
  options.explore_share = 0.5;  // half of each batch where the model is least sure
  options.optimism = 1e6;       // the upper bound is the disagreement alone
  TaskTuner tuner(task, options);
  FakeMeasurer measurer;
  for (int round = 0; round < 6; ++round) {
    const std::vector<int64_t> batch = tuner.propose(8);
    REQUIRE(batch.size() == 8);
    for (int64_t index : batch) {
      CHECK_FALSE(far.contains(index));
      tuner.observe(index, measurer.measure(task, index));
    }
  }
  CHECK(tuner.screened_out() > 0);  // the model's pools held some, all left out
}

TEST_CASE("a fresh task's first trial is its default schedule as search sees it, and only the first") {
  const TuningTask task = small_conv_task(4);
  const layoutopt::kernels::ConfigSpace& space = task.op.space();
  const int64_t rule = space.searched_part(task.op.default_index());
  REQUIRE(space.searched(rule));
  std::map<std::string, int64_t> expected = task.op.knobs(task.op.default_index());
  for (const layoutopt::kernels::Knob& knob : space.knobs())
    if (!knob.searched) expected[knob.name] = knob.values.front();  // layout knobs as search leaves them
  CHECK(task.op.knobs(rule) == expected);
  TunerOptions options;
  options.random_warmup = 4;
  TaskTuner tuner(task, options);
  const std::vector<int64_t> first = tuner.propose(3);
  REQUIRE(first.size() == 3);
  CHECK(first.front() == rule);
  CHECK(std::ranges::count(first, rule) == 1);
  FakeMeasurer measurer;
  for (int64_t index : first) tuner.observe(index, measurer.measure(task, index));
  CHECK(std::ranges::count(tuner.propose(3), rule) == 0);  // measured: never proposed again
}

TEST_CASE("model-guided search finds a near-optimal config in a fraction of the space") {
  const TuningTask task = small_conv_task();
  FakeMeasurer measurer;
  const SessionResult result = tune_tasks({task}, {}, measurer, [](const MeasureRecord&) {}, trial_budget(96));
  REQUIRE(result.tasks.size() == 1);
  CHECK(result.new_trials == 96);
  CHECK(task.op.space().size() > 500);
  CHECK(result.tasks[0].best_seconds <= 1.1 * true_optimum(task));
}

TEST_CASE("a task's first trials go where other tasks' measurements point (shared experience)") {
  // Two tasks of one landscape: measuring the first teaches the shared model where it is
  // fast, so the second task's first batch is ranked instead of drawn at random.
  const TuningTask learned = small_conv_task(32);
  const TuningTask fresh = small_conv_task(64);
  TunerOptions options;
  options.random_warmup = 8;
  options.explore_share = 0;
  options.model.rounds = 20;
  TuningExperience experience(options.model);
  FakeMeasurer measurer;
  TaskTuner teacher(learned, options, &experience);
  while (teacher.trials() < 64)
    for (int64_t index : teacher.propose(8)) teacher.observe(index, measurer.measure(learned, index));
  CHECK(experience.rows() == 64);

  TaskTuner guided(fresh, options, &experience);
  TaskTuner alone(fresh, options);
  const std::vector<double> guided_costs = proposed_costs(guided, fresh);
  const std::vector<double> random_costs = proposed_costs(alone, fresh);
  CHECK(guided_costs.front() <= 1.1 * true_optimum(fresh));
  CHECK(guided_costs[guided_costs.size() / 2] < random_costs[random_costs.size() / 2]);
}

TEST_CASE("shared experience: rows of the wrong width and predictions from nothing are refused") {
  TuningExperience experience;
  const std::vector<float> row(kConfigFeatureCount, 1.0F);
  CHECK_THROWS_AS((void)experience.predict(row), std::invalid_argument);
  CHECK_THROWS_AS(experience.add(std::vector<float>(kConfigFeatureCount - 1, 1.0F), 0.5F), std::invalid_argument);
  CHECK(experience.rows() == 0);
  experience.add(row, 0.5F);
  CHECK(experience.predict(row).size() == 1);
}

TEST_CASE("the model's members disagree where few measurements constrain it, and agree where many do") {
  // Feature 0 of 200 rows spread over [0, 1) with label x; three rows near 5 whose labels
  // scatter. A bootstrap member misses some of those three, so the members part there.
  TuningExperience experience({.rounds = 20});
  std::vector<float> row(kConfigFeatureCount, 0.0F);
  for (int i = 0; i < 200; ++i) {
    row[0] = static_cast<float>(i) / 200.0F;
    experience.add(row, row[0]);
  }
  const float scattered[] = {-2.0F, 3.0F, 0.0F};
  for (int i = 0; i < 3; ++i) {
    row[0] = 5.0F + 0.3F * static_cast<float>(i);
    experience.add(row, scattered[i]);
  }
  std::vector<float> rows(2 * kConfigFeatureCount, 0.0F);
  rows[0] = 0.5F;
  rows[kConfigFeatureCount] = 5.3F;
  const std::vector<float> spread = experience.disagreement(rows);
  REQUIRE(spread.size() == 2);
  CHECK(spread[1] > 0.5F);
  CHECK(spread[1] > 10.0F * spread[0]);
  CHECK(experience.disagreement(rows) == spread);  // the same rows, the same members

  TuningExperience empty;
  CHECK_THROWS_AS((void)empty.disagreement(rows), std::invalid_argument);
}

TEST_CASE("a model-ranked batch spends its exploration share on the highest upper bound, not the next best") {
  const TuningTask task = small_conv_task();
  TunerOptions greedy_options;
  greedy_options.random_warmup = 8;
  greedy_options.model.rounds = 20;
  greedy_options.explore_share = 0;
  TunerOptions exploring_options = greedy_options;
  exploring_options.explore_share = 0.125;
  exploring_options.optimism = 1e6;  // the upper bound is the disagreement alone
  TaskTuner greedy(task, greedy_options);
  TaskTuner exploring(task, exploring_options);
  FakeMeasurer measurer;
  for (TaskTuner* tuner : {&greedy, &exploring})  // the same warm-up: the same seed, no model yet
    for (int64_t index : tuner->propose(16)) tuner->observe(index, measurer.measure(task, index));
  REQUIRE(greedy.trials() == 16);
  const std::vector<int64_t> best_only = greedy.propose(8);
  const std::vector<int64_t> explored = exploring.propose(8);
  REQUIRE(best_only.size() == 8);
  REQUIRE(explored.size() == 8);
  // Seven of eight are the model's best predictions, the eighth is not the next of them.
  CHECK(std::vector<int64_t>(best_only.begin(), best_only.begin() + 7) ==
        std::vector<int64_t>(explored.begin(), explored.begin() + 7));
  CHECK(explored[7] != best_only[7]);
  CHECK(std::set<int64_t>(explored.begin(), explored.end()).size() == 8);
  // A batch of one is all exploitation.
  CHECK(exploring.propose(1).size() == 1);
}

TEST_CASE("resume: configs in the history are never measured again and retrain the model") {
  const TuningTask task = small_conv_task();
  std::vector<MeasureRecord> log;
  const RecordSink sink = [&](const MeasureRecord& r) { log.push_back(r); };
  FakeMeasurer first;
  (void)tune_tasks({task}, {}, first, sink, trial_budget(40));
  REQUIRE(log.size() == 40);

  FakeMeasurer second;
  const SessionResult resumed = tune_tasks({task}, log, second, sink, trial_budget(40));
  CHECK(resumed.tasks[0].resumed == 40);
  CHECK(resumed.tasks[0].trials == 80);
  for (const auto& [key, calls] : second.calls) {
    CHECK(calls == 1);
    CHECK_FALSE(first.calls.contains(key));
  }
  std::set<int64_t> distinct;
  for (const MeasureRecord& r : log) distinct.insert(r.config_index);
  CHECK(distinct.size() == 80);
}

TEST_CASE("resume reopens an early-stopped task whose space gained a knob its records never name") {
  const TuningTask task = small_conv_task();
  SessionOptions options = trial_budget(400);
  options.tuner.early_stopping = 10;
  std::vector<MeasureRecord> log;
  FakeMeasurer first;
  const SessionResult tuned = tune_tasks({task}, {}, first, [&](const MeasureRecord& r) { log.push_back(r); }, options);
  REQUIRE(tuned.new_trials < 400);  // early-stopped, not out of budget
  // The same log again: nothing left to do.
  FakeMeasurer again;
  CHECK(tune_tasks({task}, log, again, [](const MeasureRecord&) {}, options).new_trials == 0);
  // The log as written before prefetch_weights existed: its kernels, without the knob's name.
  std::erase_if(log, [](const MeasureRecord& r) { return r.knob_map().at("prefetch_weights") != 0; });
  for (MeasureRecord& r : log) std::erase_if(r.knobs, [](const auto& knob) { return knob.first == "prefetch_weights"; });
  REQUIRE_FALSE(log.empty());
  FakeMeasurer reopened;
  const SessionResult result = tune_tasks({task}, log, reopened, [](const MeasureRecord&) {}, options);
  CHECK(result.tasks[0].resumed == static_cast<int64_t>(log.size()));
  CHECK(result.new_trials >= options.tuner.early_stopping);
}

TEST_CASE("resume ignores records of another target and of other tasks") {
  const TuningTask task = small_conv_task();
  std::vector<MeasureRecord> log;
  FakeMeasurer first;
  (void)tune_tasks({task}, {}, first, [&](const MeasureRecord& r) { log.push_back(r); }, trial_budget(16));
  for (MeasureRecord& r : log) r.target = "llvm -mcpu=other";
  FakeMeasurer second;
  const SessionResult result = tune_tasks({small_conv_task(16), task}, log, second, [](const MeasureRecord&) {},
                                          trial_budget(0));
  CHECK(result.tasks[1].resumed == 0);
  CHECK(summarize_history({task}, log, "llvm -mcpu=other").tasks[0].resumed == 16);
}

TEST_CASE("failed configs are kept as trials with an error and do not stop tuning") {
  const TuningTask task = small_conv_task();
  struct Failing : Measurer {
    MeasureResult measure(const TuningTask&, int64_t index) override {
      MeasureResult r;
      if (index % 2 == 0) r.error_no = static_cast<int>(MeasureErrorNo::compile_host);
      else r.costs_s = {1e-3};
      return r;
    }
  } measurer;
  std::vector<MeasureRecord> log;
  const SessionResult result =
      tune_tasks({task}, {}, measurer, [&](const MeasureRecord& r) { log.push_back(r); }, trial_budget(24));
  CHECK(log.size() == 24);
  CHECK(std::any_of(log.begin(), log.end(), [](const MeasureRecord& r) { return r.result.error_no != 0; }));
  CHECK(result.tasks[0].best_seconds == doctest::Approx(1e-3));
}

TEST_CASE("top candidates are kept per distinct (input, output) layout pair") {
  const TuningTask task = small_conv_task();
  FakeMeasurer measurer;
  SessionOptions options = trial_budget(120);
  options.tuner.top_k = 2;
  const SessionResult result = tune_tasks({task}, {}, measurer, [](const MeasureRecord&) {}, options);
  const TaskOutcome& outcome = result.tasks[0];
  CHECK(outcome.candidates.pair_count() > 1);
  std::map<std::pair<std::string, std::string>, int> per_pair;
  for (const LayoutCandidate& c : outcome.candidates.all()) ++per_pair[{c.layouts.input.str(), c.layouts.output.str()}];
  CHECK(per_pair.size() == outcome.candidates.pair_count());
  for (const auto& [pair, count] : per_pair) CHECK(count <= 2);
}

TEST_CASE("the task scheduler gives more trials to the heavier task") {
  // Two identical tasks except for weight: the same improvement curve per trial.
  std::vector<TaskStatus> tasks{{1.0, {}, false}, {4.0, {}, false}};
  const auto best_after = [](size_t trials) { return 1e-3 * (1 + 4.0 / (1 + static_cast<double>(trials))); };
  for (int step = 0; step < 400; ++step) {
    const auto next = pick_next_task(tasks);
    REQUIRE(next.has_value());
    auto& history = tasks[*next].best_history;
    history.push_back(best_after(history.size() + 1));
  }
  const auto light = tasks[0].best_history.size();
  const auto heavy = tasks[1].best_history.size();
  CHECK(static_cast<int64_t>(light) >= SchedulerOptions{}.warmup_trials);  // warm-up reached every task
  CHECK(heavy > 2 * light);
  CHECK(estimated_latency(tasks) > 0);
}

TEST_CASE("a budget that ends soon after the warm-up still goes mostly to the costliest task") {
  // A quick budget on a network of many small tasks and one large one: 20 tasks, 12 trials
  // each on average, handed out in batches of 8 as tune_tasks does. A warm-up of two batches
  // per task would spend the whole budget round-robin (8 or 16 trials each).
  std::vector<TaskStatus> tasks(20, TaskStatus{1.0, {}, false});
  const auto cost = [](size_t task) { return task == 7 ? 1.5e-3 : 4e-5; };  // no improvement
  for (int batch = 0; batch < 30; ++batch) {
    const auto next = pick_next_task(tasks);
    REQUIRE(next.has_value());
    for (int64_t trial = 0; trial < kTrialsPerBatch; ++trial) tasks[*next].best_history.push_back(cost(*next));
  }
  for (size_t i = 0; i < tasks.size(); ++i) {
    CAPTURE(i);
    CHECK(static_cast<int64_t>(tasks[i].best_history.size()) >= SchedulerOptions{}.warmup_trials);
    if (i != 7) CHECK(tasks[7].best_history.size() >= 4 * tasks[i].best_history.size());
  }
}

TEST_CASE("alternative algorithms of one workload count once, at their fastest, and share its gain") {
  const std::vector<TaskStatus> tasks{{2.0, {3e-3}, false, 0}, {2.0, {1e-3}, false, 0}, {1.0, {5e-3}, false, -1}};
  CHECK(estimated_latency(tasks) == doctest::Approx(2 * 1e-3 + 5e-3));
  // One trial each, so no recent improvement: the gain is the exploration term alone. Both
  // alternatives are scaled by the workload's fastest best and get half a lone task's share.
  const std::vector<TaskStatus> lone{{2.0, {1e-3}, false, -1}};
  CHECK(estimated_gain(tasks, 0) == doctest::Approx(estimated_gain(lone, 0) / 2));
  CHECK(estimated_gain(tasks, 1) == doctest::Approx(estimated_gain(lone, 0) / 2));
  CHECK(estimated_gain(tasks, 2) == doctest::Approx(estimated_gain({{1.0, {5e-3}, false, -1}}, 0)));
}

TEST_CASE("configs in flight count as trials: a task is not picked again for the configs it has out") {
  // Both warming up; task 0 has fewer measured trials but more in flight.
  std::vector<TaskStatus> tasks{{1.0, {2e-3, 2e-3}, false, -1, 8}, {1.0, {2e-3, 2e-3, 2e-3, 2e-3}, false, -1, 0}};
  CHECK(pick_next_task(tasks) == std::optional<size_t>(1));
  tasks[0].in_flight = 0;
  CHECK(pick_next_task(tasks) == std::optional<size_t>(0));
  // Past the warm-up, configs out shrink the exploration term like measured ones.
  const std::vector<TaskStatus> out{{1.0, std::vector<double>(20, 1e-3), false, -1, 20}};
  const std::vector<TaskStatus> in{{1.0, std::vector<double>(20, 1e-3), false, -1, 0}};
  CHECK(estimated_gain(out, 0) == doctest::Approx(estimated_gain(in, 0) / 2));
}

TEST_CASE("a tuner never proposes a config it proposed before and has not heard back about") {
  const TuningTask task = small_conv_task(4);
  TunerOptions options;
  options.early_stopping = 0;
  // Every config proposable: with AVX2's 16 registers the screen drops this space's widest
  // tiles, and the count below is about configs in flight, not the screen.
  options.screen_far_tiles = false;
  TaskTuner tuner(task, options);
  const std::vector<int64_t> first = tuner.propose(5);
  const std::vector<int64_t> second = tuner.propose(5);
  CHECK(tuner.in_flight() == 10);
  std::set<int64_t> distinct(first.begin(), first.end());
  distinct.insert(second.begin(), second.end());
  CHECK(distinct.size() == 10);
  FakeMeasurer measurer;
  for (int64_t index : first) tuner.observe(index, measurer.measure(task, index));
  CHECK(tuner.in_flight() == 5);
  CHECK(tuner.trials() == 5);
  // Everything left in flight: exhausted for the scheduler, and nothing more to propose.
  const int64_t left = task.op.space().searched_size() - 10;
  CHECK(static_cast<int64_t>(tuner.propose(left + 3).size()) == left);
  CHECK(tuner.exhausted());
  CHECK(tuner.propose(1).empty());
}

TEST_CASE("the task scheduler skips finished tasks and warms up tasks without a working config") {
  std::vector<TaskStatus> tasks{{10.0, std::vector<double>(20, 1e-3), true}, {1.0, {}, false}};
  CHECK(pick_next_task(tasks) == std::optional<size_t>(1));
  tasks[1].finished = true;
  CHECK_FALSE(pick_next_task(tasks).has_value());
}
