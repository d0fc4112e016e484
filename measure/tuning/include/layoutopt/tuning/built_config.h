#pragma once
// The builder half of a measurement (AutoTVM's builder / runner split): a config's kernel,
// compiled, or the failure a measurement reports for it. build_configs compiles a batch on
// several threads before any of it is timed: compiling is most of a trial for direct convs,
// the JIT compiles on several threads at once, and timing needs every core to itself, so
// the runner (KernelMeasurer) times the built kernels one by one afterwards.

#include <cstdint>
#include <span>
#include <variant>
#include <vector>

#include "layoutopt/kernels/kernel.h"
#include "layoutopt/tuning/measure_record.h"
#include "layoutopt/tuning/tuning_task.h"

namespace layoutopt::tuning {

struct BuiltConfig {
  std::variant<MeasureResult, kernels::Kernel> kernel_or_failure;  ///< the failure has error_no set
  double seconds = 0;                                              ///< spent compiling it
};

/// Compiles config `index` of `task`; never throws (a failure is returned as AutoTVM files
/// it: instantiation errors for invalid schedules and code generation, compile_host else).
[[nodiscard]] BuiltConfig build_config(const TuningTask& task, int64_t index);

/// build_config of every index, in order, on up to `threads` threads at once.
[[nodiscard]] std::vector<BuiltConfig> build_configs(const TuningTask& task, std::span<const int64_t> indices,
                                                     int threads);

}  // namespace layoutopt::tuning
