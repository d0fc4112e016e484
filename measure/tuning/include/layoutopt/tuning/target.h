#pragma once
// The target string records and tables are keyed by, AutoTVM-style:
// "llvm -mcpu=znver5 -num-cores=2 -cost=cold-weights". Kernel timings only transfer between
// machines with the same CPU, between runs with the same thread count (TVM's llvm target
// spells it -num-cores) and between timings made under the same cost policy
// (cost_policy.h), so every record says all three.

#include <string>

namespace layoutopt::tuning {

/// "llvm -mcpu=<host cpu> -num-cores=<threads> -cost=<policy>" with the CPU name the JIT
/// compiles for (LLVM's name) and kCostPolicyName. Throws std::invalid_argument for
/// threads < 1.
[[nodiscard]] std::string host_target(int threads);

}  // namespace layoutopt::tuning
