#pragma once
// KernelMeasurer: the real Measurer. Compiles the config's kernel (compile time is reported
// in all_cost but never part of the run time; a batch's kernels are all compiled first, on
// as many threads as a measurement times with: built_config.h), allocates its operands in
// the schedule's physical layouts filled with random values (weights directly in their
// blocked layout: weight re-layout happens once ahead of time and is not timed), and times
// it with the shared cost procedure (time_cost in cost_policy.h). The median run is the cost.

#include <memory>
#include <optional>

#include "layoutopt/kernels/kernel.h"
#include "layoutopt/kernels/parallel_compile.h"
#include "layoutopt/tuning/built_config.h"
#include "layoutopt/tuning/measurer.h"
#include "layoutopt/tuning/timed_operands.h"
#include "layoutopt/timing/timing.h"

namespace layoutopt::tuning {

class KernelMeasurer : public Measurer {
 public:
  explicit KernelMeasurer(timing::TimingPolicy policy)
      : policy_(policy), builders_(policy.threads > 0 ? policy.threads : kernels::compile_threads()) {}
  MeasureResult measure(const TuningTask& task, int64_t index) override;
  void measure_batch(const TuningTask& task, const std::vector<int64_t>& indices,
                     const ResultCallback& on_result) override;

 private:
  /// Times a built config (or passes its compile failure on), all_cost counting both.
  MeasureResult run(const TuningTask& task, int64_t index, BuiltConfig built);

  timing::TimingPolicy policy_;
  int builders_;  ///< compile threads: the cores a measurement runs on
  std::optional<KernelOperands> operands_;  ///< of the last measurement, reused when sizes match
  /// Intermediates of multi-stage kernels, one set for every config measured (as a network
  /// shares one among its steps), so each config does not allocate and fault in its own.
  std::shared_ptr<kernels::KernelScratch> scratch_ = std::make_shared<kernels::KernelScratch>();
};

}  // namespace layoutopt::tuning
