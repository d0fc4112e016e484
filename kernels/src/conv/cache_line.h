#pragma once

#include <cstdint>

namespace layoutopt::kernels::conv {

/// Floats per cache line on every x86 host the kernels target (64 bytes).
inline constexpr int64_t kFloatsPerCacheLine = 16;

}  // namespace layoutopt::kernels::conv
