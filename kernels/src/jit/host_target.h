#pragma once
// Run-time detection of the host CPU for the JIT.

#include "jit/jit_engine.h"

namespace layoutopt::kernels::jit {

/// Host triple, CPU name and feature string as LLVM reports them; vector width derived from
/// the features (avx512f -> 16 fp32 lanes, avx2/avx -> 8, otherwise 4).
[[nodiscard]] HostTarget detect_host_target();

}  // namespace layoutopt::kernels::jit
