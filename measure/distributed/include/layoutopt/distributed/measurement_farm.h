#pragma once
// MeasurementFarm: a Measurer whose batches are measured by several workers at once, and a
// transform timer whose passes are. The tuning session (tuning_session.h) stays the one
// search on this process (the task scheduler picks a task, its tuner proposes a batch of
// configs); the farm hands the batch's configs to the workers one at a time, each to the next
// worker that is idle, so a slower worker simply measures fewer of them. Every result is
// passed on the moment it arrives, so the session appends its record to the one log at once.
// A worker the transport reports lost has its work handed to another worker and is given
// nothing more. Transforms go out the same way, one pass of one key at a time, pass after
// pass over the list (a slow stretch of one host moves one sample per key).
//
// Streams (measure_stream) run ahead: the next batch is asked for once fewer configs wait
// than there are live workers, so the others measure the last configs of one batch while the
// search proposes the next (no worker idles at batch ends). The search shares its host with
// one worker (`search_worker`: rank 0's own measuring thread): it runs only while that worker
// is idle, so it never disturbs a timing and never takes a CPU the user did not give.
//
//   MeasurementFarm farm(tasks, transport);
//   tune_tasks(tasks, history, farm, sink, options);   // instead of a KernelMeasurer
//   fill_transform_table(table, keys, farm, ...);      // instead of a LocalTransformTimer

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "layoutopt/costs/transform_timing.h"
#include "layoutopt/distributed/transport.h"
#include "layoutopt/tuning/measurer.h"
#include "layoutopt/tuning/tuning_task.h"

namespace layoutopt::distributed {

struct FarmStatistics {
  std::vector<int64_t> measured;  ///< units of work (configs, transform passes) each worker reported
  std::vector<bool> lost;         ///< workers reported lost, by worker
  int64_t reissued = 0;           ///< units handed out again because their worker was lost
  double search_s = 0;     ///< wall time the search took to propose batches (streams only)
  double idle_s = 0;       ///< worker-seconds with no config to measure while a stream ran
  /// Worker-seconds from handing a config out to its result beyond the measurement itself
  /// (the result's all_cost_s): messaging and polling. Configs only.
  double messaging_s = 0;
};

class MeasurementFarm : public tuning::Measurer, public costs::TransformTimer {
 public:
  /// `tasks` and `transport` must outlive the farm; the workers know the same task list.
  /// `search_worker`: the worker on this process's CPUs, if any (the search waits for it).
  MeasurementFarm(const std::vector<tuning::TuningTask>& tasks, Transport& transport,
                  std::optional<int> search_worker = std::nullopt);

  tuning::MeasureResult measure(const tuning::TuningTask& task, int64_t index) override;
  /// Throws std::runtime_error when every worker is lost, or `task` is not in the task list.
  void measure_batch(const tuning::TuningTask& task, const std::vector<int64_t>& indices,
                     const ResultCallback& on_result) override;
  /// Throws as measure_batch does.
  void measure_stream(const BatchSource& next, const StreamCallback& on_result) override;
  /// Throws std::runtime_error when every worker is lost (a worker whose timing throws is lost).
  std::vector<costs::TransformEntry> time(const std::vector<costs::TransformKey>& keys,
                                          timing::ProgressReporter* progress,
                                          const costs::EntryCallback& on_entry) override;

  [[nodiscard]] const FarmStatistics& statistics() const { return statistics_; }

 private:
  [[nodiscard]] int64_t task_number(const tuning::TuningTask& task) const;
  [[nodiscard]] bool any_worker_left() const;
  [[nodiscard]] int live_workers() const;
  using Clock = std::chrono::steady_clock;
  /// A unit of work and the caller's number for it (the search's task id, a key's position).
  struct Item {
    Assignment work;
    size_t id = 0;
  };
  /// The next items to hand out, or nullopt when there will be no more.
  using ItemSource = std::function<std::optional<std::vector<Item>>()>;
  /// Takes one finished item; false asks the farm to hand out nothing more.
  using ItemCallback = std::function<bool(size_t id, const Completion& completion)>;
  struct Stream;
  /// Hands out what `next` proposes until it is done, passing every completion on.
  void run(const ItemSource& next, const ItemCallback& on_done);
  /// Whether to ask the source for its next items now (see the class comment).
  [[nodiscard]] bool wants_items(const Stream& stream) const;
  void hand_out(Stream& stream);
  /// Waits for one worker event and applies it; false when none came.
  bool take_event(Stream& stream, const ItemCallback& on_done);

  const std::vector<tuning::TuningTask>& tasks_;
  Transport& transport_;
  std::optional<int> search_worker_;
  FarmStatistics statistics_;
};

}  // namespace layoutopt::distributed
