#include "layoutopt/tuning/built_config.h"

#include <chrono>
#include <exception>
#include <string>

#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/parallel_compile.h"

namespace layoutopt::tuning {

namespace {

MeasureResult failure(MeasureErrorNo error, const std::string& message) {
  MeasureResult result;
  result.error_no = static_cast<int>(error);
  result.error_message = message;
  return result;
}

}  // namespace

BuiltConfig build_config(const TuningTask& task, int64_t index) {
  const auto start = std::chrono::steady_clock::now();
  BuiltConfig built{failure(MeasureErrorNo::compile_host, "not compiled")};
  try {
    built.kernel_or_failure = task.op.compile(index);
  } catch (const kernels::KernelError& e) {
    // KernelError covers both invalid schedules and code-generation failures; AutoTVM files
    // both under instantiation errors of the template.
    built.kernel_or_failure = failure(MeasureErrorNo::instantiation_error, e.what());
  } catch (const std::exception& e) {
    built.kernel_or_failure = failure(MeasureErrorNo::compile_host, e.what());
  } catch (...) {  // on a builder thread nothing may escape
    built.kernel_or_failure = failure(MeasureErrorNo::compile_host, "unknown error while compiling");
  }
  built.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return built;
}

std::vector<BuiltConfig> build_configs(const TuningTask& task, std::span<const int64_t> indices, int threads) {
  std::vector<BuiltConfig> built(indices.size());
  kernels::parallel_compile(indices.size(), threads, [&](size_t i) { built[i] = build_config(task, indices[i]); });
  return built;
}

}  // namespace layoutopt::tuning
