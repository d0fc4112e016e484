#include "layoutopt/tuning/task_scheduler.h"

#include <algorithm>
#include <cmath>

namespace layoutopt::tuning {

namespace {

int64_t trials_of(const TaskStatus& task) { return static_cast<int64_t>(task.best_history.size()); }

// Trials measured or being measured.
int64_t planned_trials(const TaskStatus& task) { return trials_of(task) + task.in_flight; }

double best_of(const TaskStatus& task) {
  return task.best_history.empty() ? INFINITY : task.best_history.back();
}

bool warming_up(const TaskStatus& task, const SchedulerOptions& options) {
  return planned_trials(task) < options.warmup_trials || !std::isfinite(best_of(task));
}

// Relative improvement of the best cost per trial over the last `window` trials.
double recent_rate(const TaskStatus& task, int64_t window) {
  const int64_t trials = trials_of(task);
  const int64_t span = std::min(window, trials - 1);
  if (span <= 0) return 0;
  const double before = task.best_history[static_cast<size_t>(trials - 1 - span)];
  const double now = best_of(task);
  if (!std::isfinite(before)) return 1.0 / static_cast<double>(span);  // went from failing to working
  return (before - now) / before / static_cast<double>(span);
}

bool alternatives(const TaskStatus& a, const TaskStatus& b) { return a.workload >= 0 && a.workload == b.workload; }

/// Task `index`'s workload: the fastest best among its algorithms, how many they are, and
/// whether `index` is the first of them (the one that counts the workload in a sum).
struct WorkloadBest {
  double seconds = INFINITY;
  double algorithms = 1;
  bool first = true;
};

WorkloadBest workload_best(const std::vector<TaskStatus>& tasks, size_t index) {
  WorkloadBest workload{best_of(tasks[index])};
  for (size_t j = 0; j < tasks.size(); ++j) {
    if (j == index || !alternatives(tasks[index], tasks[j])) continue;
    workload.seconds = std::min(workload.seconds, best_of(tasks[j]));
    ++workload.algorithms;
    workload.first = workload.first && index < j;
  }
  return workload;
}

}  // namespace

double estimated_gain(const std::vector<TaskStatus>& tasks, size_t index, const SchedulerOptions& options) {
  const TaskStatus& task = tasks[index];
  const WorkloadBest workload = workload_best(tasks, index);
  const double trials = static_cast<double>(std::max<int64_t>(1, planned_trials(task)));
  return task.weight / workload.algorithms * workload.seconds *
         (recent_rate(task, options.window) + options.exploration / trials);
}

std::optional<size_t> pick_next_task(const std::vector<TaskStatus>& tasks, const SchedulerOptions& options) {
  std::optional<size_t> warmup, best;
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (tasks[i].finished) continue;
    if (warming_up(tasks[i], options)) {
      if (!warmup || planned_trials(tasks[i]) < planned_trials(tasks[*warmup])) warmup = i;
    } else if (!best || estimated_gain(tasks, i, options) > estimated_gain(tasks, *best, options)) {
      best = i;
    }
  }
  return warmup ? warmup : best;
}

double estimated_latency(const std::vector<TaskStatus>& tasks) {
  double total = 0;
  for (size_t i = 0; i < tasks.size(); ++i) {
    const WorkloadBest workload = workload_best(tasks, i);
    if (workload.first && std::isfinite(workload.seconds)) total += tasks[i].weight * workload.seconds;
  }
  return total;
}

}  // namespace layoutopt::tuning
