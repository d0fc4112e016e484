#pragma once
// KernelMeasurer: the real Measurer. Compiles the config's kernel (compile time is reported
// in all_cost but never part of the run time), allocates its operands in the schedule's
// physical layouts filled with random values (weights directly in their blocked layout:
// weight re-layout happens once ahead of time and is not timed), and times it with the
// shared cost procedure (time_cost in cost_policy.h). The median run is the cost.

#include <optional>

#include "layoutopt/measure/measurer.h"
#include "layoutopt/measure/timed_operands.h"
#include "layoutopt/measure/timing.h"

namespace layoutopt::measure {

class KernelMeasurer : public Measurer {
 public:
  explicit KernelMeasurer(TimingPolicy policy) : policy_(policy) {}
  MeasureResult measure(const TuningTask& task, int64_t index) override;

 private:
  TimingPolicy policy_;
  std::optional<KernelOperands> operands_;  ///< of the last measurement, reused when sizes match
};

}  // namespace layoutopt::measure
