#pragma once
// What the JIT compiles for: the host CPU, detected at run time.

#include <string>

namespace layoutopt::kernels {

struct HostInfo {
  std::string cpu_name;       ///< LLVM's name, e.g. "sapphirerapids", "znver4"
  int vector_lanes = 4;       ///< fp32 lanes of the widest usable vector: 16 (AVX-512), 8 (AVX2), 4
  int vector_registers = 16;  ///< architectural vector registers: 32 with AVX-512, 16 before it

  /// Accumulators a conv register tile may hold: the register file less two weight vectors,
  /// a broadcast and a spare (28 of AVX-512's 32 zmm, 12 of AVX2's 16 ymm). A tile sized for
  /// AVX-512 spills on an AVX2 host and runs several times slower there.
  [[nodiscard]] int tile_accumulators() const { return vector_registers - 4; }
};

/// Host CPU as the JIT sees it (computed once per process).
[[nodiscard]] const HostInfo& host_info();

}  // namespace layoutopt::kernels
