#pragma once
// Measurer: how a tuner obtains the cost of one config. An interface so the search logic
// (tuner, task scheduler, resume) runs in tests against a synthetic cost function, without
// compiling or timing anything.

#include <cstdint>
#include <functional>
#include <vector>

#include "layoutopt/tuning/measure_record.h"
#include "layoutopt/tuning/tuning_task.h"

namespace layoutopt::tuning {

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
};

}  // namespace layoutopt::tuning
