#include "layoutopt/tuning/tuning_session.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "layoutopt/tuning/transferred_experience.h"

namespace layoutopt::tuning {

namespace {

using Clock = std::chrono::steady_clock;

double gflops(const TuningTask& task, double seconds) {
  return std::isfinite(seconds) && seconds > 0 ? task.op.flops() / seconds * 1e-9 : 0.0;
}

std::vector<TaskTuner> make_tuners(const std::vector<TuningTask>& tasks, const TunerOptions& options,
                                   TuningExperience* experience = nullptr) {
  std::vector<TaskTuner> tuners;
  tuners.reserve(tasks.size());
  for (size_t i = 0; i < tasks.size(); ++i) {
    TunerOptions own = options;
    own.seed = options.seed + i;  // distinct random streams, reproducible per task
    tuners.emplace_back(tasks[i], own, experience);
  }
  return tuners;
}

// True when some searched knob of the task's space is named by none of the records.
bool space_outgrew(const TuningTask& task, const std::set<std::string>& named) {
  return std::ranges::any_of(task.op.space().knobs(),
                             [&](const kernels::Knob& knob) { return knob.searched && !named.contains(knob.name); });
}

// Feeds matching history into the tuners; returns how many records named a task here but
// a config outside its space. A task whose space has a knob none of its records name (added
// since, read as its value when absent) is reopened: its old trials searched only a slice.
int64_t resume(const std::vector<TuningTask>& tasks, std::vector<TaskTuner>& tuners, std::vector<int64_t>& resumed,
               const std::vector<MeasureRecord>& history, const std::string& target) {
  const TaskIndex index_of(tasks);
  std::vector<std::set<std::string>> named(tasks.size());
  int64_t unmatched = 0;
  for (const MeasureRecord& record : history) {
    const std::optional<size_t> task = index_of.find(record, target);
    if (!task) continue;
    TaskTuner& tuner = tuners[*task];
    const std::map<std::string, int64_t> knobs = record.knob_map();
    const std::optional<int64_t> index = tuner.task().config_index(knobs);
    if (!index) {
      ++unmatched;
      continue;
    }
    for (const auto& knob : knobs) named[*task].insert(knob.first);
    if (tuner.task().op.space().searched(*index) && !tuner.measured(*index)) ++resumed[*task];
    tuner.observe(*index, record.result);
  }
  for (size_t i = 0; i < tasks.size(); ++i)
    if (tuners[i].trials() > 0 && space_outgrew(tasks[i], named[i])) tuners[i].reopen();
  return unmatched;
}

std::vector<TaskStatus> statuses(const std::vector<TaskTuner>& tuners) {
  std::vector<TaskStatus> result;
  for (const TaskTuner& t : tuners)
    result.push_back(
        {static_cast<double>(t.task().weight), t.best_history(), t.finished(), t.task().workload, t.in_flight()});
  return result;
}

std::string status_line(const TaskTuner& tuner, size_t position, size_t count, double elapsed_s) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(1) << "[Task " << position + 1 << "/" << count
      << "] Current/Best: " << gflops(tuner.task(), tuner.last_seconds()) << "/"
      << gflops(tuner.task(), tuner.best_seconds()) << " GFLOPS | Progress: (" << tuner.trials() << "/"
      << tuner.task().op.space().searched_size() << ") | " << elapsed_s << " s";
  return out.str();
}

TaskOutcome outcome_of(const TaskTuner& tuner, int64_t resumed) {
  return {tuner.trials(),
          resumed,
          tuner.best_seconds(),
          gflops(tuner.task(), tuner.best_seconds()),
          tuner.best_index(),
          tuner.candidates()};
}

// Tracks the global budget: trials and/or wall-clock seconds.
class Budget {
 public:
  explicit Budget(const SessionOptions& options) : options_(options) {}
  [[nodiscard]] double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  [[nodiscard]] bool spent(int64_t trials) const {
    return (options_.trials > 0 && trials >= options_.trials) ||
           (options_.time_budget_s > 0 && elapsed() >= options_.time_budget_s);
  }
  /// (done, total) for the progress bar, in whichever unit the budget is set.
  [[nodiscard]] std::pair<double, double> fraction(int64_t trials) const {
    if (options_.time_budget_s > 0) return {elapsed(), options_.time_budget_s};
    return {static_cast<double>(trials), static_cast<double>(options_.trials)};
  }

 private:
  const SessionOptions& options_;
  Clock::time_point start_ = Clock::now();
};

}  // namespace

MeasureRecord make_record(const std::string& target, const TuningTask& task, int64_t index,
                          const MeasureResult& result) {
  MeasureRecord record{target, task.task_key(), index, {}, result, {}};
  const std::map<std::string, int64_t> knobs = task.op.knobs(index);
  for (const kernels::Knob& knob : task.op.space().knobs()) record.knobs.emplace_back(knob.name, knobs.at(knob.name));
  return record;
}

std::vector<MeasureRecord> measure_configs(const std::vector<TuningTask>& tasks,
                                           const std::vector<PlannedConfig>& configs, Measurer& measurer,
                                           const std::string& target, const RecordSink& sink) {
  std::vector<MeasureRecord> measured;
  size_t next = 0;
  measurer.measure_stream(
      [&]() -> std::optional<Batch> {
        if (next == configs.size()) return std::nullopt;
        Batch batch{&tasks.at(configs[next].task), configs[next].task, {}};
        for (; next < configs.size() && configs[next].task == batch.task_id; ++next)
          batch.indices.push_back(configs[next].index);
        return batch;
      },
      [&](size_t task, int64_t index, const MeasureResult& result) {
        measured.push_back(make_record(target, tasks[task], index, result));
        sink(measured.back());
        return true;
      });
  return measured;
}

double estimated_latency(const std::vector<TuningTask>& tasks, const SessionResult& result) {
  std::vector<TaskStatus> statuses;
  for (size_t i = 0; i < tasks.size(); ++i) {
    const TaskOutcome& outcome = result.tasks.at(i);
    std::vector<double> best;
    if (outcome.best_index) best.push_back(outcome.best_seconds);
    statuses.push_back({static_cast<double>(tasks[i].weight), best, true, tasks[i].workload});
  }
  return estimated_latency(statuses);
}

SessionResult summarize_history(const std::vector<TuningTask>& tasks, const std::vector<MeasureRecord>& history,
                                const std::string& target, const TunerOptions& options) {
  std::vector<TaskTuner> tuners = make_tuners(tasks, options);
  std::vector<int64_t> resumed(tasks.size(), 0);
  SessionResult result;
  result.unmatched_records = resume(tasks, tuners, resumed, history, target);
  for (size_t i = 0; i < tuners.size(); ++i) result.tasks.push_back(outcome_of(tuners[i], resumed[i]));
  return result;
}

SessionResult tune_tasks(const std::vector<TuningTask>& tasks, const std::vector<MeasureRecord>& history,
                         Measurer& measurer, const RecordSink& sink, const SessionOptions& options,
                         timing::ProgressReporter* progress) {
  if (options.batch_size <= 0) throw std::invalid_argument("tune_tasks: batch size must be positive");
  const Budget budget(options);
  TuningExperience experience(options.tuner.model);
  std::vector<TaskTuner> tuners = make_tuners(tasks, options.tuner, &experience);
  std::vector<int64_t> resumed(tasks.size(), 0);
  SessionResult result;
  result.unmatched_records = resume(tasks, tuners, resumed, history, options.target);
  result.transferred_records = add_foreign_experience(experience, tasks, history, options.target);
  int64_t proposed = 0;  // new trials proposed: measured or in flight
  const auto next_batch = [&]() -> std::optional<Batch> {
    if (budget.spent(proposed)) return std::nullopt;
    const std::optional<size_t> next = pick_next_task(statuses(tuners), options.scheduler);
    if (!next) return std::nullopt;
    const int64_t left = options.trials > 0 ? options.trials - proposed : options.batch_size;
    Batch batch{&tasks[*next], *next, tuners[*next].propose(std::min(options.batch_size, left))};
    proposed += static_cast<int64_t>(batch.indices.size());
    return batch;
  };
  const auto on_result = [&](size_t task, int64_t index, const MeasureResult& measured) {
    TaskTuner& tuner = tuners[task];
    sink(make_record(options.target, tasks[task], index, measured));
    tuner.observe(index, measured);
    ++result.new_trials;
    if (progress) {
      const std::pair<double, double> shown = budget.fraction(result.new_trials);
      progress->update(shown.first, shown.second, status_line(tuner, task, tasks.size(), budget.elapsed()));
    }
    return !budget.spent(result.new_trials);
  };
  // A stream ends when the search has nothing to propose while configs are still out; their
  // results may give it more (a task no longer failing), so it is asked again until it has none.
  for (int64_t before = -1; proposed > before && !budget.spent(result.new_trials);) {
    before = proposed;
    measurer.measure_stream(next_batch, on_result);
  }
  for (size_t i = 0; i < tuners.size(); ++i) result.tasks.push_back(outcome_of(tuners[i], resumed[i]));
  result.seconds = budget.elapsed();
  return result;
}

}  // namespace layoutopt::tuning
