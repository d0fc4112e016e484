#include "jit/kernel_cache.h"

#include <future>
#include <mutex>
#include <unordered_map>

#include "jit/jit_engine.h"

namespace layoutopt::kernels::jit {

namespace {

using Compiled = std::shared_ptr<const CompiledFunction>;
/// A key's compile: still running or done (the key's entry is shared by its waiters and
/// compared by address to tell whether it was replaced meanwhile).
using PendingOrCompiled = std::shared_ptr<const std::shared_future<Compiled>>;

// While the IR is retained for ahead-of-time compilation, a kernel compiled before (its IR
// not kept) must be compiled again, under a new symbol.
bool usable(const Compiled& compiled) {
  JitEngine& engine = JitEngine::instance();
  return !engine.retaining_ir() || engine.has_retained_ir(compiled->name);
}

}  // namespace

Compiled cached_kernel(const std::string& key, const std::function<CompiledFunction()>& build) {
  // Keys map to futures: the first request of a key compiles it outside the lock (so other
  // keys compile at the same time, JitEngine::compile being concurrent), later requests wait
  // for that compile instead of starting their own.
  static std::mutex mutex;
  static std::unordered_map<std::string, PendingOrCompiled> cache;
  std::promise<Compiled> promise;
  const auto ours = std::make_shared<const std::shared_future<Compiled>>(promise.get_future().share());
  for (std::unique_lock<std::mutex> lock(mutex);;) {
    const auto [found, inserted] = cache.try_emplace(key, ours);
    if (inserted) break;
    const PendingOrCompiled theirs = found->second;
    lock.unlock();
    const Compiled compiled = theirs->get();  // rethrows the error of a failed compile
    if (usable(compiled)) return compiled;
    lock.lock();
    // Stale: whoever comes back first replaces it.
    if (const auto now = cache.find(key); now != cache.end() && now->second == theirs) cache.erase(now);
  }
  try {
    promise.set_value(std::make_shared<const CompiledFunction>(build()));
  } catch (...) {
    promise.set_exception(std::current_exception());
    std::lock_guard<std::mutex> lock(mutex);
    if (const auto found = cache.find(key); found != cache.end() && found->second == ours) cache.erase(found);
  }
  return ours->get();
}

}  // namespace layoutopt::kernels::jit
