#include "layoutopt/tuning/default_configs.h"

#include "layoutopt/tuning/selection_bias.h"

namespace layoutopt::tuning {

DefaultSeconds default_config_seconds(const std::vector<TuningTask>& tasks, const std::vector<MeasureRecord>& records,
                                      const std::string& target) {
  const SessionResult known = summarize_history(tasks, records, target);
  const std::vector<double> once_timed = once_timed_factors_of(known);
  DefaultSeconds seconds;
  for (size_t t = 0; t < tasks.size(); ++t)
    if (const auto estimate = known.tasks[t].candidates.estimated_seconds(tasks[t].op.default_index(), {.once_timed_factor = once_timed[t]}))
      seconds.emplace(tasks[t].task_key(), *estimate);
  return seconds;
}

std::vector<MeasureRecord> measure_default_configs(const std::vector<TuningTask>& tasks,
                                                   const std::vector<MeasureRecord>& records, Measurer& measurer,
                                                   const std::string& target, const RecordSink& sink) {
  const DefaultSeconds known = default_config_seconds(tasks, records, target);
  std::vector<PlannedConfig> missing;
  for (size_t t = 0; t < tasks.size(); ++t)
    if (!known.contains(tasks[t].task_key())) missing.push_back({t, tasks[t].op.default_index()});
  return measure_configs(tasks, missing, measurer, target, sink);
}

}  // namespace layoutopt::tuning
