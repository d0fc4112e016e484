#pragma once
// Measurer: how a tuner obtains the cost of one config. An interface so the search logic
// (tuner, task scheduler, resume) runs in tests against a synthetic cost function, without
// compiling or timing anything.

#include <cstdint>

#include "layoutopt/tuning/measure_record.h"
#include "layoutopt/tuning/tuning_task.h"

namespace layoutopt::tuning {

class Measurer {
 public:
  virtual ~Measurer() = default;
  /// Cost of config `index` of `task`. Failures (invalid schedule, compile error) are
  /// returned as error_no != 0, never thrown: one bad config must not end a tuning run.
  virtual MeasureResult measure(const TuningTask& task, int64_t index) = 0;
};

}  // namespace layoutopt::tuning
