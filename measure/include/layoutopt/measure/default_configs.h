#pragma once
// The untuned default config of every task (TunableOp::default_index: 16 / 8 channel
// blocks, the family's default tiles), measured like any tuning trial and kept in the same
// record log, so the "default" baseline's node costs come from the same harness, and the
// same file, as the tuned ones.

#include <map>
#include <string>
#include <vector>

#include "layoutopt/measure/measure_record.h"
#include "layoutopt/measure/measurer.h"
#include "layoutopt/measure/tuning_session.h"
#include "layoutopt/measure/tuning_task.h"

namespace layoutopt::measure {

/// Seconds of each task's default config among `records` of `target` (the median when timed
/// more than once), by TuningTask::key();
/// tasks whose default was not measured (or failed) are missing.
[[nodiscard]] std::map<std::string, double> default_config_seconds(const std::vector<TuningTask>& tasks,
                                                                   const std::vector<MeasureRecord>& records,
                                                                   const std::string& target);

/// Measures the default configs that `records` lack, handing each new record to `sink`
/// (append it to the log). Returns the new records.
std::vector<MeasureRecord> measure_default_configs(const std::vector<TuningTask>& tasks,
                                                   const std::vector<MeasureRecord>& records, Measurer& measurer,
                                                   const std::string& target, const RecordSink& sink);

}  // namespace layoutopt::measure
