#include "layoutopt/measure/default_configs.h"

#include "layoutopt/measure/statistics.h"

namespace layoutopt::measure {

std::map<std::string, double> default_config_seconds(const std::vector<TuningTask>& tasks,
                                                     const std::vector<MeasureRecord>& records,
                                                     const std::string& target) {
  std::map<std::string, const TuningTask*> by_key;
  for (const TuningTask& task : tasks) by_key.emplace(task.key(), &task);
  std::map<std::string, std::vector<double>> timings;
  for (const MeasureRecord& record : records) {
    if (record.target != target || !record.result.ok()) continue;
    const auto task = by_key.find(record.task_key());
    if (task == by_key.end()) continue;
    if (task->second->config_index(record.knob_map()) != task->second->op.default_index()) continue;
    timings[task->first].push_back(record.result.seconds());
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
