#pragma once
// Transfer learning from other tasks' records: measurements in the log (or a shared log) of
// tasks that are not among a session's own (other networks tuned on this host earlier) become
// training rows of the session's shared cost model before the first trial, as AutoTVM's
// transfer learning does. A task with no trials of its own is then ranked by what made
// those tasks fast instead of being sampled at random: under a quick budget, where a task
// gets a dozen trials in all, the first ones land near the answer.
//
// The rows are the ones a task's own tuner would add (config_features of the record's
// config, log GFLOPS): a foreign task is rebuilt from its TaskKey, whose workload fields
// describe it completely (the epilogue is not part of a task).

#include <optional>
#include <string>
#include <vector>

#include "layoutopt/tuning/measure_record.h"
#include "layoutopt/tuning/task_key.h"
#include "layoutopt/tuning/tuning_experience.h"
#include "layoutopt/tuning/tuning_task.h"

namespace layoutopt::tuning {

/// The task a key names, rebuilt from its workload fields; nullopt when they describe no
/// workload our kernels accept (a record of another tool's template variant).
[[nodiscard]] std::optional<TuningTask> task_of_key(const TaskKey& key);

/// The training row's label of a measurement: log GFLOPS of the task at `seconds`.
[[nodiscard]] float experience_label(const TuningTask& task, double seconds);

/// Adds to `experience` one row per successful measurement in `history`, for `target`, of a
/// searched config of a task that is none of `own` (their records reach the model through
/// their tuners). Returns how many rows it added.
int64_t add_foreign_experience(TuningExperience& experience, const std::vector<TuningTask>& own,
                               const std::vector<MeasureRecord>& history, const std::string& target);

}  // namespace layoutopt::tuning
