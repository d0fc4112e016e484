#include "layoutopt/measure/default_configs.h"

#include "layoutopt/measure/statistics.h"

namespace layoutopt::measure {

std::map<std::string, double> default_config_seconds(const std::vector<TuningTask>& tasks,
                                                     const std::vector<MeasureRecord>& records,
                                                     const std::string& target) {
  const TaskIndex index_of(tasks);
  std::map<std::string, std::vector<double>> timings;
  for (const MeasureRecord& record : records) {
    const std::optional<size_t> position = index_of.find(record, target);
    if (!position || !record.result.ok()) continue;
    const TuningTask& task = tasks[*position];
    if (task.config_index(record.knob_map()) != task.op.default_index()) continue;
    timings[task.key()].push_back(record.result.seconds());
  }
  // The median, as for tuned configs (layout_candidates.h).
  std::map<std::string, double> seconds;
  for (const auto& [key, samples] : timings) seconds.emplace(key, summarize(samples).median);
  return seconds;
}

std::vector<MeasureRecord> measure_default_configs(const std::vector<TuningTask>& tasks,
                                                   const std::vector<MeasureRecord>& records, Measurer& measurer,
                                                   const std::string& target, const RecordSink& sink) {
  const std::map<std::string, double> known = default_config_seconds(tasks, records, target);
  std::vector<MeasureRecord> measured;
  for (const TuningTask& task : tasks) {
    if (known.contains(task.key())) continue;
    const int64_t index = task.op.default_index();
    measured.push_back(make_record(target, task, index, measurer.measure(task, index)));
    sink(measured.back());
  }
  return measured;
}

}  // namespace layoutopt::measure
