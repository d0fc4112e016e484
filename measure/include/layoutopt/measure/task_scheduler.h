#pragma once
// Task scheduling: which task receives the next batch of trials, so that a global trial or
// time budget goes where it most reduces the estimated end-to-end latency
// sum_i weight_i * best_i (a greedy form of Ansor's gradient-based task scheduler, §6).
//
//   1. Warm-up, round-robin: a task with fewer than `warmup_trials` trials, or no working
//      config yet, goes first (fewest trials first).
//   2. Then the task with the largest estimated gain per trial:
//        weight * best * (recent_rate + exploration / trials)
//      recent_rate is the relative improvement of its best cost per trial over its last
//      `window` trials (the backward gradient), and exploration / trials an optimistic
//      term that shrinks as a task is explored: with no improvement anywhere, trials
//      spread in proportion to each task's share of the end-to-end latency.
// Finished tasks (space exhausted or early-stopped) are never picked.

#include <cstdint>
#include <optional>
#include <vector>

namespace layoutopt::measure {

struct TaskStatus {
  double weight = 1;                 ///< occurrences in the graph
  std::vector<double> best_history;  ///< best cost (s) after each trial; +inf until one works
  bool finished = false;
};

struct SchedulerOptions {
  int64_t warmup_trials = 16;
  int64_t window = 32;
  double exploration = 0.2;
};

/// Index of the task to tune next; nullopt when every task is finished.
[[nodiscard]] std::optional<size_t> pick_next_task(const std::vector<TaskStatus>& tasks,
                                                   const SchedulerOptions& options = {});

/// The scheduler's gain estimate of one task (exposed for tests and diagnostics).
[[nodiscard]] double estimated_gain(const TaskStatus& task, const SchedulerOptions& options = {});

/// sum of weight * best over tasks with a working config (seconds).
[[nodiscard]] double estimated_latency(const std::vector<TaskStatus>& tasks);

}  // namespace layoutopt::measure
