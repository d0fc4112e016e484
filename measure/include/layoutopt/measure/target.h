#pragma once
// The target string records and tables are keyed by, AutoTVM-style: "llvm -mcpu=znver5".
// Kernel timings only transfer between machines with the same CPU, so every record says
// which CPU it was measured on.

#include <string>

namespace layoutopt::measure {

/// "llvm -mcpu=<host cpu>" with the CPU name the JIT compiles for (LLVM's name).
[[nodiscard]] std::string host_target();

}  // namespace layoutopt::measure
