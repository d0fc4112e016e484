#include "layoutopt/kernels/host.h"

#include <unistd.h>

#include "jit/jit_engine.h"

namespace layoutopt::kernels {

const HostInfo& host_info() {
  static const HostInfo info = [] {
    const jit::HostTarget& host = jit::JitEngine::instance().host();
    // AVX-512 doubles the register file along with the width (zmm0-31); x86-64 has 16 before it.
    HostInfo detected{host.cpu, host.vector_lanes, host.vector_lanes == 16 ? 32 : 16};
    // LLVM 16 names Zen 4 but not Zen 5 ("generic"), so the name tells the split units apart.
    detected.half_vectors_full_rate = host.vector_lanes == 16 && host.cpu == "znver4";
    if (const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE); l2 > 0) detected.l2_bytes = l2;
    return detected;
  }();
  return info;
}

}  // namespace layoutopt::kernels
