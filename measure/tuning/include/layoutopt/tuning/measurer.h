#pragma once
// Measurer: how a tuner obtains the cost of one config. An interface so the search logic
// (tuner, task scheduler, resume) runs in tests against a synthetic cost function, without
// compiling or timing anything.

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "layoutopt/tuning/measure_record.h"
#include "layoutopt/tuning/tuning_task.h"

namespace layoutopt::tuning {

/// Configs of one task the search wants measured; `task_id` is the caller's number for the
/// task, passed back with each result.
struct Batch {
  const TuningTask* task = nullptr;
  size_t task_id = 0;
  std::vector<int64_t> indices;
};

class Measurer {
 public:
  virtual ~Measurer() = default;
  /// Cost of config `index` of `task`. Failures (invalid schedule, compile error) are
  /// returned as error_no != 0, never thrown: one bad config must not end a tuning run.
  virtual MeasureResult measure(const TuningTask& task, int64_t index) = 0;

  /// Called once per config measured, in the order they finish; returning false starts no
  /// further config of the batch (configs already being measured are still reported).
  using ResultCallback = std::function<bool(int64_t index, const MeasureResult& result)>;
  /// Measures configs `indices` of `task`, reporting each as it finishes. One after another
  /// here; a measurer with several workers (distributed/measurement_farm.h) runs them at once.
  virtual void measure_batch(const TuningTask& task, const std::vector<int64_t>& indices,
                             const ResultCallback& on_result) {
    for (int64_t index : indices)
      if (!on_result(index, measure(task, index))) return;
  }

  /// The search's next batch, or nullopt when it has none to propose now.
  using BatchSource = std::function<std::optional<Batch>()>;
  using StreamCallback = std::function<bool(size_t task_id, int64_t index, const MeasureResult& result)>;
  /// Measures batch after batch from `next` until it returns nullopt and every config it gave
  /// was reported, or `on_result` returns false. Here each batch is measured before the next
  /// is asked for; a measurer with several workers asks for the next batch while the last
  /// configs of one are still being measured, so no worker idles between batches.
  virtual void measure_stream(const BatchSource& next, const StreamCallback& on_result) {
    while (std::optional<Batch> batch = next()) {
      bool go_on = true;
      measure_batch(*batch->task, batch->indices, [&](int64_t index, const MeasureResult& result) {
        go_on = on_result(batch->task_id, index, result);
        return go_on;
      });
      if (!go_on) return;
    }
  }
};

}  // namespace layoutopt::tuning
