#pragma once
// Process-wide cache of compiled kernels keyed by a text key (operator + desc + schedule):
// the same (workload, schedule, epilogue) is compiled once per process.

#include <functional>
#include <memory>
#include <string>

#include "layoutopt/kernels/kernel.h"

namespace layoutopt::kernels::jit {

/// Returns the cached kernel for `key`, calling `build` to compile it on the first request.
/// Thread-safe; concurrent requests for one key compile it once.
[[nodiscard]] std::shared_ptr<const CompiledFunction> cached_kernel(const std::string& key,
                                                                    const std::function<CompiledFunction()>& build);

}  // namespace layoutopt::kernels::jit
