#include "layoutopt/tuning/kernel_measurer.h"

#include <chrono>
#include <exception>
#include <optional>

#include "layoutopt/kernels/error.h"
#include "layoutopt/tuning/activation_placement.h"
#include "layoutopt/timing/cost_policy.h"
#include "layoutopt/tuning/timed_operands.h"

namespace layoutopt::tuning {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double unix_time() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

MeasureResult failure(MeasureErrorNo error, const std::string& message) {
  MeasureResult result;
  result.error_no = static_cast<int>(error);
  result.error_message = message;
  return result;
}

// KernelError covers both invalid schedules and code-generation failures; AutoTVM files
// both under instantiation errors of the template.
MeasureResult measure_config(const TuningTask& task, int64_t index, const timing::TimingPolicy& policy,
                             std::optional<KernelOperands>& operands,
                             const std::shared_ptr<kernels::KernelScratch>& scratch) {
  std::optional<kernels::Kernel> kernel;
  try {
    kernel = task.op.compile(index);
    kernel->use_scratch(scratch);
  } catch (const kernels::KernelError& e) {
    return failure(MeasureErrorNo::instantiation_error, e.what());
  } catch (const std::exception& e) {
    return failure(MeasureErrorNo::compile_host, e.what());
  }
  // The configs of a task mostly need the same sizes: their random operands are reused
  // rather than allocated, faulted in and filled again for every config.
  const kernels::BufferSizes sizes = task.op.buffer_sizes(index);
  if (!operands || operands->sizes() != sizes)  // emplace frees the old operands first
    operands.emplace(sizes, timing::cold_weight_copies(static_cast<size_t>(sizes.weight) * sizeof(float)));
  const kernels::OpLayouts layouts = task.op.layouts(index);
  const ActivationExtent input{sizes.input, row_plane_floats(task.op.input_shape(), layouts.input)};
  const ActivationExtent residual{sizes.residual, row_plane_floats(task.op.output_shape(), layouts.output)};
  int64_t run = 0;
  const timing::Timing timing = timing::time_cost(
      policy, [&] { (*kernel)(operands->args(run++)); },
      [&] {
        operands->place_activations(input, residual);
        for (const std::span<float> intermediates : kernel->scratch_regions()) evict_from_caches(intermediates);
      });
  MeasureResult result;
  result.costs_s = {timing.ms.median / 1e3};
  return result;
}

}  // namespace

MeasureResult KernelMeasurer::measure(const TuningTask& task, int64_t index) {
  const Clock::time_point start = Clock::now();
  MeasureResult result;
  try {
    result = measure_config(task, index, policy_, operands_, scratch_);
  } catch (const std::exception& e) {
    result = failure(MeasureErrorNo::runtime_device, e.what());
  }
  result.all_cost_s = seconds_since(start);
  result.timestamp = unix_time();
  return result;
}

}  // namespace layoutopt::tuning
