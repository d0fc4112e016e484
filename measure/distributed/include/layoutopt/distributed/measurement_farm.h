#pragma once
// MeasurementFarm: a Measurer whose batches are measured by several workers at once. The
// tuning session (tuning_session.h) stays the one search on this process (the task scheduler
// picks a task, its tuner proposes a batch of configs); the farm hands the batch's configs to
// the workers one at a time, each to the next worker that is idle, so a slower worker simply
// measures fewer of them. Every result is passed on the moment it arrives, so the session
// appends its record to the one log at once. A worker the transport reports lost has its
// config handed to another worker and is given nothing more.
//
//   MeasurementFarm farm(tasks, transport);
//   tune_tasks(tasks, history, farm, sink, options);   // instead of a KernelMeasurer

#include <cstdint>
#include <vector>

#include "layoutopt/distributed/transport.h"
#include "layoutopt/tuning/measurer.h"
#include "layoutopt/tuning/tuning_task.h"

namespace layoutopt::distributed {

struct FarmStatistics {
  std::vector<int64_t> measured;  ///< configs each worker reported, by worker
  std::vector<bool> lost;         ///< workers reported lost, by worker
  int64_t reissued = 0;           ///< configs handed out again because their worker was lost
};

class MeasurementFarm : public tuning::Measurer {
 public:
  /// `tasks` and `transport` must outlive the farm; the workers know the same task list.
  MeasurementFarm(const std::vector<tuning::TuningTask>& tasks, Transport& transport);

  tuning::MeasureResult measure(const tuning::TuningTask& task, int64_t index) override;
  /// Throws std::runtime_error when every worker is lost, or `task` is not in the task list.
  void measure_batch(const tuning::TuningTask& task, const std::vector<int64_t>& indices,
                     const ResultCallback& on_result) override;

  [[nodiscard]] const FarmStatistics& statistics() const { return statistics_; }

 private:
  [[nodiscard]] int64_t task_number(const tuning::TuningTask& task) const;
  [[nodiscard]] bool any_worker_left() const;

  const std::vector<tuning::TuningTask>& tasks_;
  Transport& transport_;
  FarmStatistics statistics_;
};

}  // namespace layoutopt::distributed
