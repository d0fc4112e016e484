#include "layoutopt/tuning/transferred_experience.h"

#include <cmath>
#include <map>

#include "layoutopt/kernels/error.h"
#include "layoutopt/tuning/config_features.h"
#include "workload_key.h"

namespace layoutopt::tuning {

std::optional<TuningTask> task_of_key(const TaskKey& key) {
  try {
    TuningTask task = make_task(workload_of(key));
    // The rebuilt task must be the one the key names (a grouped key whose groups make it
    // depthwise, say, names a template our extraction never writes).
    if (task.task_key() != key) return std::nullopt;
    return task;
  } catch (const kernels::KernelError&) {
    return std::nullopt;
  }
}

float experience_label(const TuningTask& task, double seconds) {
  return static_cast<float>(std::log(task.op.flops() / seconds * 1e-9));
}

int64_t add_foreign_experience(TuningExperience& experience, const std::vector<TuningTask>& own,
                               const std::vector<MeasureRecord>& history, const std::string& target) {
  std::map<TaskKey, std::optional<TuningTask>> rebuilt;
  for (const TuningTask& task : own) rebuilt.emplace(task.task_key(), std::nullopt);  // theirs come via tuners
  int64_t added = 0;
  for (const MeasureRecord& record : history) {
    if (record.target != target || !record.task || !record.result.ok()) continue;
    auto [entry, fresh] = rebuilt.try_emplace(*record.task);
    if (fresh) entry->second = task_of_key(*record.task);
    if (!entry->second) continue;
    const TuningTask& task = *entry->second;
    const std::optional<int64_t> index = task.config_index(record.knob_map());
    if (!index || !task.op.space().searched(*index)) continue;
    experience.add(config_features(task, *index), experience_label(task, record.result.seconds()));
    ++added;
  }
  return added;
}

}  // namespace layoutopt::tuning
