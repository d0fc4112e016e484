#pragma once
// The target string records and tables are keyed by, AutoTVM-style:
// "llvm -mcpu=znver5 -num-cores=2". Kernel timings only transfer between machines with the
// same CPU and between runs with the same thread count, so every record says both (TVM's
// llvm target spells the thread count -num-cores).

#include <string>

namespace layoutopt::measure {

/// "llvm -mcpu=<host cpu> -num-cores=<threads>" with the CPU name the JIT compiles for
/// (LLVM's name). Throws std::invalid_argument for threads < 1.
[[nodiscard]] std::string host_target(int threads);

}  // namespace layoutopt::measure
