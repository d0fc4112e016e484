#pragma once
// Compiling on several threads: the JIT generates code on several threads at once
// (docs/design/parallel-compile.md), so callers with many kernels to compile (a network's
// convs, a tuning batch, an artifact's objects) hand them out over the cores.

#include <cstddef>
#include <functional>

namespace layoutopt::kernels {

/// Threads to compile on when nothing else runs: one per core the process may use.
[[nodiscard]] int compile_threads();

/// Calls compile(i) once for every i in [0, count), on up to `threads` threads (the caller's
/// among them), and returns when every call has. The first exception a call throws is
/// rethrown then; the calls not yet started when it was thrown are skipped.
void parallel_compile(size_t count, int threads, const std::function<void(size_t)>& compile);

}  // namespace layoutopt::kernels
