#pragma once
// The untuned default config of every task (TunableOp::default_index: the family's rule
// from the shape, docs/design/default-schedules.md), measured like any tuning trial and kept
// in the same record log, so the "default" baseline's node costs come from the same harness,
// and the same file, as the tuned ones.

#include <map>
#include <string>
#include <vector>

#include "layoutopt/tuning/measure_record.h"
#include "layoutopt/tuning/measurer.h"
#include "layoutopt/tuning/tuning_session.h"
#include "layoutopt/tuning/tuning_task.h"

namespace layoutopt::tuning {

/// Seconds by task.
using DefaultSeconds = std::map<TaskKey, double>;

/// Estimated seconds of each task's default config among `records` of `target`, by
/// TuningTask::task_key(), priced exactly as the measured cost source prices tuned configs
/// (layout_candidates.h): the median of its latest later timings when it was timed again,
/// else its one timing times the task's selection-bias factor. Priced otherwise, the
/// default row would predict from raw timings and the graph-tuned row from corrected ones,
/// and the default could look faster than a plan that is free to choose it (evidence:
/// docs/design/baselines.md). Tasks whose default was not measured (or failed) are missing.
[[nodiscard]] DefaultSeconds default_config_seconds(const std::vector<TuningTask>& tasks,
                                                    const std::vector<MeasureRecord>& records, const std::string& target);

/// Measures the default configs that `records` lack, handing each new record to `sink`
/// (append it to the log). Returns the new records.
std::vector<MeasureRecord> measure_default_configs(const std::vector<TuningTask>& tasks,
                                                   const std::vector<MeasureRecord>& records, Measurer& measurer,
                                                   const std::string& target, const RecordSink& sink);

}  // namespace layoutopt::tuning
