#include "layoutopt/kernels/kernel.h"

#include <omp.h>

#include <algorithm>

#include "layoutopt/kernels/error.h"

namespace layoutopt::kernels {

Kernel::Kernel(std::shared_ptr<const CompiledFunction> compiled) : compiled_(std::move(compiled)) {
  if (!compiled_ || compiled_->function == nullptr) throw KernelError("Kernel: no compiled function");
}

void Kernel::check_args(const KernelArgs& args) const {
  if (args.input == nullptr || args.output == nullptr)
    throw KernelError(name() + ": input and output must not be null");
  if (compiled_->needs_weight && args.weight == nullptr)
    throw KernelError(name() + ": weight must not be null");
  if (compiled_->needs_bias && args.bias == nullptr)
    throw KernelError(name() + ": the epilogue adds a bias but no bias was passed");
  if (compiled_->needs_residual && args.residual == nullptr)
    throw KernelError(name() + ": the epilogue adds a residual but no residual was passed");
}

void Kernel::run_range(const KernelArgs& args, int64_t begin, int64_t end) const {
  check_args(args);
  begin = std::max<int64_t>(begin, 0);
  end = std::min(end, work_items());
  if (begin >= end) return;
  compiled_->function(args.input, args.weight, args.bias, args.residual, args.output, begin, end);
}

void Kernel::operator()(const KernelArgs& args) const {
  check_args(args);
  const int64_t items = work_items();
  // One contiguous range per thread: work items are equal-sized, and contiguous ranges keep
  // each thread on its own output-channel blocks (their weights stay in that core's cache).
  const int64_t chunks = std::min<int64_t>(items, omp_get_max_threads());
  const KernelFunction function = compiled_->function;
#pragma omp parallel for schedule(static)
  for (int64_t chunk = 0; chunk < chunks; ++chunk) {
    const int64_t begin = items * chunk / chunks;
    const int64_t end = items * (chunk + 1) / chunks;
    function(args.input, args.weight, args.bias, args.residual, args.output, begin, end);
  }
}

}  // namespace layoutopt::kernels
