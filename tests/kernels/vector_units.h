#pragma once
// The three kinds of x86 vector unit the kernels' rules tell apart, as HostInfo values, so a
// rule's test can ask about hosts other than the one it runs on.

#include "layoutopt/kernels/host.h"

namespace layoutopt::kernels::testing {

inline HostInfo vector_unit(int lanes, bool half_vectors_full_rate) {
  HostInfo info;
  info.vector_lanes = lanes;
  info.vector_registers = lanes == 16 ? 32 : 16;
  info.half_vectors_full_rate = half_vectors_full_rate;
  return info;
}

inline const HostInfo kFullWidth = vector_unit(16, false);  // Zen 5, Sapphire Rapids
inline const HostInfo kSplitWidth = vector_unit(16, true);  // Zen 4: 512-bit FMAs as two 256-bit halves
inline const HostInfo kAvx2 = vector_unit(8, false);

}  // namespace layoutopt::kernels::testing
