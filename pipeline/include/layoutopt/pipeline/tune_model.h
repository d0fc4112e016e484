#pragma once
// `layoutopt tune` as one library call: a model's conv/dense tasks (or one of them) tuned by
// the XGBoost-guided search under one budget, every measurement appended to the record log
// at once. Resumes: configs the log holds for this target are never measured again.
// `exhaustive` sweeps one task's whole space instead (to see how close the tuner gets).
// The CLI and the Python module call it, so both tune the same way.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/tuning/measurer.h"
#include "layoutopt/tuning/tuning_session.h"
#include "layoutopt/tuning/tuning_task.h"

namespace layoutopt::pipeline {

struct TuneRequest {
  std::filesystem::path records;  ///< JSON-lines record log: resumed from and appended to
  int64_t trials = 0;             ///< new measurements over all tasks (or time_budget_s)
  double time_budget_s = 0;       ///< wall-clock seconds (or trials)
  int threads = 1;                ///< resolve_threads; records are keyed by it
  bool quiet = false;             ///< no progress output (warnings still printed)
  size_t top_k = 3;               ///< configs kept per (input, output) layout pair
  int64_t batch_size = 8;         ///< trials per scheduling decision
  int64_t early_stopping = 200;   ///< stop a task after this many trials without improvement
  double min_repeat_ms = 20;      ///< least timed milliseconds per measurement
  uint64_t seed = 0;              ///< seed of the search
  size_t task = 0;                ///< 1-based task to tune alone; 0: every task
  size_t exhaustive = 0;          ///< 1-based task whose whole space is swept; 0: tune
};

struct TuneReport {
  std::vector<tuning::TuningTask> tasks;  ///< the tasks tuned, parallel to result.tasks
  tuning::SessionResult result;
  std::string target;  ///< tuning::host_target(threads), the records' key
  /// Seconds per inference of the tuned conv/dense work (tuning::estimated_latency).
  double estimated_seconds = 0;
};

/// Tunes `graph` (as loaded; tasks are extracted from it). Throws std::runtime_error for a
/// missing budget or a task number the model does not have, and what tuning throws.
[[nodiscard]] TuneReport tune_model(const graph::Graph& graph, const TuneRequest& request);

/// The same with configs measured by `measurer` (a measurement farm spreading them over
/// hosts) instead of this process's KernelMeasurer.
[[nodiscard]] TuneReport tune_model(const graph::Graph& graph, const TuneRequest& request, tuning::Measurer& measurer);

/// The tasks `request` tunes, in the order tune_model tunes them (every task, or the one
/// `task` / `exhaustive` names). Throws std::runtime_error for a task the model does not have.
[[nodiscard]] std::vector<tuning::TuningTask> requested_tasks(const graph::Graph& graph, const TuneRequest& request);

}  // namespace layoutopt::pipeline
