#include "jit/kernel_cache.h"

#include <mutex>
#include <unordered_map>

namespace layoutopt::kernels::jit {

std::shared_ptr<const CompiledFunction> cached_kernel(const std::string& key,
                                                      const std::function<CompiledFunction()>& build) {
  static std::mutex mutex;
  static std::unordered_map<std::string, std::shared_ptr<const CompiledFunction>> cache;
  // Compiling under the lock keeps one compile per key; compiles take milliseconds and the
  // JIT itself serializes them anyway.
  std::lock_guard<std::mutex> lock(mutex);
  auto found = cache.find(key);
  if (found != cache.end()) return found->second;
  auto compiled = std::make_shared<const CompiledFunction>(build());
  cache.emplace(key, compiled);
  return compiled;
}

}  // namespace layoutopt::kernels::jit
