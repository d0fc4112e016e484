#pragma once
// Task scheduling: which task receives the next batch of trials, so that a global trial or
// time budget goes where it most reduces the estimated end-to-end latency
// sum_i weight_i * best_i (a greedy form of Ansor's gradient-based task scheduler, §6).
//
//   1. Warm-up, round-robin: a task with fewer than `warmup_trials` trials (one batch of
//      kTrialsPerBatch, its default schedule among them), or no working config
//      yet, goes first (fewest trials first). One batch, not more: a quick budget ends
//      inside a longer warm-up, which would spread it evenly over tasks whatever their cost
//      (docs/design/task-scheduling.md).
//   2. Then the task with the largest estimated gain per trial:
//        weight * best * (recent_rate + exploration / trials)
//      recent_rate is the relative improvement of its best cost per trial over its last
//      `window` trials (the backward gradient), and exploration / trials an optimistic
//      term that shrinks as a task is explored: with no improvement anywhere, trials
//      spread in proportion to each task's share of the end-to-end latency.
// Finished tasks (space exhausted or early-stopped) are never picked. A task's configs still
// being measured (a measurer that runs ahead of the search) count as its trials in the
// warm-up order and the exploration term, so a task is not picked again for configs it has
// in flight; the improvement rate reads measured trials only.
//
// Tasks may be alternative algorithms of one workload (direct and Winograd convolution):
// the workload then costs weight * the fastest of their bests, and each alternative's gain
// is scaled by that fastest best and shared among them, so a workload draws the same
// exploration whatever its number of algorithms.

#include <cstdint>
#include <optional>
#include <vector>

namespace layoutopt::tuning {

struct TaskStatus {
  double weight = 1;                 ///< occurrences in the graph
  std::vector<double> best_history;  ///< best cost (s) after each trial; +inf until one works
  bool finished = false;
  /// Tasks with the same workload id >= 0 are alternatives; -1: alternative to none.
  int64_t workload = -1;
  int64_t in_flight = 0;  ///< proposed configs not yet measured
};

/// Trials a task is given per scheduling decision, unless a session asks for other batches.
inline constexpr int64_t kTrialsPerBatch = 8;

struct SchedulerOptions {
  int64_t warmup_trials = kTrialsPerBatch;
  int64_t window = 32;
  double exploration = 0.2;
};

/// Index of the task to tune next; nullopt when every task is finished.
[[nodiscard]] std::optional<size_t> pick_next_task(const std::vector<TaskStatus>& tasks,
                                                   const SchedulerOptions& options = {});

/// The scheduler's gain estimate of task `index` (exposed for tests and diagnostics).
[[nodiscard]] double estimated_gain(const std::vector<TaskStatus>& tasks, size_t index,
                                    const SchedulerOptions& options = {});

/// sum over workloads of weight * the fastest best of its tasks, over those with a working
/// config (seconds).
[[nodiscard]] double estimated_latency(const std::vector<TaskStatus>& tasks);

}  // namespace layoutopt::tuning
