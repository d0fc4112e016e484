#include "jit/kernel_cache.h"

#include <mutex>
#include <unordered_map>

#include "jit/jit_engine.h"

namespace layoutopt::kernels::jit {

std::shared_ptr<const CompiledFunction> cached_kernel(const std::string& key,
                                                      const std::function<CompiledFunction()>& build) {
  static std::mutex mutex;
  static std::unordered_map<std::string, std::shared_ptr<const CompiledFunction>> cache;
  // Compiling under the lock keeps one compile per key; compiles take milliseconds and the
  // JIT itself serializes them anyway.
  std::lock_guard<std::mutex> lock(mutex);
  auto found = cache.find(key);
  // While the IR is retained for ahead-of-time compilation, a kernel compiled before (its IR
  // not kept) is compiled again, under a new symbol.
  JitEngine& engine = JitEngine::instance();
  if (found != cache.end() && (!engine.retaining_ir() || engine.has_retained_ir(found->second->name)))
    return found->second;
  auto compiled = std::make_shared<const CompiledFunction>(build());
  cache.insert_or_assign(key, compiled);
  return compiled;
}

}  // namespace layoutopt::kernels::jit
