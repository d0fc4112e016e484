#include "layoutopt/tuning/kernel_measurer.h"

#include <chrono>
#include <exception>
#include <optional>

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

MeasureResult time_kernel(const TuningTask& task, int64_t index, kernels::Kernel& kernel,
                          const timing::TimingPolicy& policy, std::optional<KernelOperands>& operands,
                          const std::shared_ptr<kernels::KernelScratch>& scratch) {
  kernel.use_scratch(scratch);
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
      policy, [&] { kernel(operands->args(run++)); },
      [&] {
        operands->place_activations(input, residual);
        for (const std::span<float> intermediates : kernel.scratch_regions()) evict_from_caches(intermediates);
      });
  MeasureResult result;
  result.costs_s = {timing.ms.median / 1e3};
  return result;
}

}  // namespace

MeasureResult KernelMeasurer::measure(const TuningTask& task, int64_t index) {
  return run(task, index, build_config(task, index));
}

void KernelMeasurer::measure_batch(const TuningTask& task, const std::vector<int64_t>& indices,
                                   const ResultCallback& on_result) {
  std::vector<BuiltConfig> built = build_configs(task, indices, builders_);
  for (size_t i = 0; i < indices.size(); ++i)
    if (!on_result(indices[i], run(task, indices[i], std::move(built[i])))) return;
}

MeasureResult KernelMeasurer::run(const TuningTask& task, int64_t index, BuiltConfig built) {
  const Clock::time_point start = Clock::now();
  MeasureResult result;
  if (auto* kernel = std::get_if<kernels::Kernel>(&built.kernel_or_failure)) {
    try {
      result = time_kernel(task, index, *kernel, policy_, operands_, scratch_);
    } catch (const std::exception& e) {
      result.error_no = static_cast<int>(MeasureErrorNo::runtime_device);
      result.error_message = e.what();
    }
  } else {
    result = std::get<MeasureResult>(built.kernel_or_failure);
  }
  result.all_cost_s = built.seconds + seconds_since(start);
  result.timestamp = unix_time();
  return result;
}

}  // namespace layoutopt::tuning
