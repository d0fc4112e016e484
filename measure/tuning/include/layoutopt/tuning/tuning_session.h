#pragma once
// tune_tasks: tunes a graph's tasks under one global budget. Resumes from earlier records
// (configs already measured for this target are never measured again and retrain the cost
// models), lets the task scheduler hand out batches of trials, appends every new
// measurement to the record sink at once, and reports progress.
//
//   RecordWriter writer(path);
//   auto outcomes = tune_tasks(tasks, load_record_log(path).records, measurer,
//                              [&](const MeasureRecord& r) { writer.append(r); }, options, &progress);

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "layoutopt/tuning/layout_candidates.h"
#include "layoutopt/tuning/measurer.h"
#include "layoutopt/timing/progress.h"
#include "layoutopt/tuning/task_scheduler.h"
#include "layoutopt/tuning/task_tuner.h"
#include "layoutopt/tuning/tuning_task.h"

namespace layoutopt::tuning {

struct SessionOptions {
  std::string target;        ///< records of other targets are ignored
  int64_t trials = 0;        ///< new measurements in this run; 0 = no trial limit
  double time_budget_s = 0;  ///< wall-clock limit of this run; 0 = no time limit
  int64_t batch_size = kTrialsPerBatch;  ///< trials given to a task per scheduling decision
  TunerOptions tuner;
  SchedulerOptions scheduler;
};

struct TaskOutcome {
  int64_t trials = 0;      ///< measured configs, resumed included
  int64_t resumed = 0;     ///< of which read from the history
  double best_seconds = 0; ///< +inf when no config worked
  double best_gflops = 0;
  std::optional<int64_t> best_index;
  LayoutCandidates candidates;  ///< every working config's timings, by layout pair
};

struct SessionResult {
  std::vector<TaskOutcome> tasks;  ///< parallel to the input tasks
  int64_t new_trials = 0;
  int64_t unmatched_records = 0;   ///< records of a task here whose config is not in its space
  /// Records of other tasks (other networks' in the log) that trained the shared cost model
  /// before the first trial (transferred_experience.h).
  int64_t transferred_records = 0;
  double seconds = 0;
};

/// The conv / dense time per inference the session's best configs promise (seconds):
/// weight x best over the workloads, each at its fastest algorithm (estimated_latency).
[[nodiscard]] double estimated_latency(const std::vector<TuningTask>& tasks, const SessionResult& result);

using RecordSink = std::function<void(const MeasureRecord&)>;

/// Throws std::invalid_argument for a non-positive batch size.
[[nodiscard]] SessionResult tune_tasks(const std::vector<TuningTask>& tasks, const std::vector<MeasureRecord>& history,
                                       Measurer& measurer, const RecordSink& sink, const SessionOptions& options,
                                       timing::ProgressReporter* progress = nullptr);

/// What the history alone says about each task (no measurement): the tune_tasks result
/// of a zero budget. Used to read tuned layout candidates back from a log.
[[nodiscard]] SessionResult summarize_history(const std::vector<TuningTask>& tasks,
                                              const std::vector<MeasureRecord>& history, const std::string& target,
                                              const TunerOptions& options = {});

/// One config to measure outside the search: config `index` of task number `task`.
struct PlannedConfig {
  size_t task = 0;
  int64_t index = 0;
};

/// Measures `configs` of `tasks` as one stream (each task's run of consecutive configs a
/// batch), so a measurer with several workers has several in flight; each record goes to
/// `sink` as it arrives. Returns the new records in arrival order.
std::vector<MeasureRecord> measure_configs(const std::vector<TuningTask>& tasks,
                                           const std::vector<PlannedConfig>& configs, Measurer& measurer,
                                           const std::string& target, const RecordSink& sink);

/// The record of one measurement, as written to the log.
[[nodiscard]] MeasureRecord make_record(const std::string& target, const TuningTask& task, int64_t index,
                                        const MeasureResult& result);

}  // namespace layoutopt::tuning
