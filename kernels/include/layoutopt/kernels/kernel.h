#pragma once
// Kernel: a JIT-compiled operator instance, callable from plain C++ (no LLVM types here).
//
// Every generated function has the signature
//   void k(const float* in, const float* w, const float* bias, const float* residual,
//          float* out, int64_t begin, int64_t end)
// and computes the work items [begin, end) (for conv2d: flattened (batch, oc_block,
// output-row tile)). Parallelism lives in the C++ runtime, not in generated code:
// operator() splits [0, work_items()) over OpenMP threads.

#include <cstdint>
#include <memory>
#include <string>

namespace layoutopt::kernels {

/// Pointers in the layouts the kernel's schedule implies. weight / bias / residual may be null
/// when the operator or its epilogue does not use them. output must not overlap input, weight
/// or bias; it may be the very same buffer as residual (in-place add).
struct KernelArgs {
  const float* input = nullptr;
  const float* weight = nullptr;
  const float* bias = nullptr;
  const float* residual = nullptr;
  float* output = nullptr;
};

using KernelFunction = void (*)(const float*, const float*, const float*, const float*, float*,
                                int64_t, int64_t);

/// Metadata of one compiled function; shared by all handles to it (kernels are cached).
struct CompiledFunction {
  KernelFunction function = nullptr;
  int64_t work_items = 0;
  double compile_ms = 0.0;  ///< IR emission + optimization + machine-code generation
  std::string name;         ///< symbol name, unique per process
  bool needs_weight = true;  ///< false for operators without a weight (pooling, activations, ...)
  bool needs_bias = false;
  bool needs_residual = false;
};

class Kernel {
 public:
  explicit Kernel(std::shared_ptr<const CompiledFunction> compiled);

  /// Runs all work items, split into contiguous ranges over the OpenMP threads.
  void operator()(const KernelArgs& args) const;
  /// Runs work items [begin, end) on the calling thread.
  void run_range(const KernelArgs& args, int64_t begin, int64_t end) const;

  [[nodiscard]] int64_t work_items() const { return compiled_->work_items; }
  [[nodiscard]] double compile_ms() const { return compiled_->compile_ms; }
  [[nodiscard]] const std::string& name() const { return compiled_->name; }

 private:
  void check_args(const KernelArgs& args) const;
  std::shared_ptr<const CompiledFunction> compiled_;
};

}  // namespace layoutopt::kernels
