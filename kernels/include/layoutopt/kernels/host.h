#pragma once
// What the JIT compiles for: the host CPU, detected at run time.

#include <cstdint>
#include <string>

namespace layoutopt::kernels {

struct HostInfo {
  std::string cpu_name;       ///< LLVM's name, e.g. "sapphirerapids", "znver4"
  int vector_lanes = 4;       ///< fp32 lanes of the widest usable vector: 16 (AVX-512), 8 (AVX2), 4
  int vector_registers = 16;  ///< architectural vector registers: 32 with AVX-512, 16 before it
  /// A core's L2 as the OS reports it (1 MiB where it does not: Zen 4 and 5's size): what a
  /// step's working set must fit in for consecutive work items to re-read it from cache.
  int64_t l2_bytes = int64_t{1} << 20;
  /// Whether FMAs on half vectors (8 lanes with AVX-512) deliver as many FLOPs per lane as
  /// full ones. True on Zen 4 alone, which executes each 512-bit FMA as two 256-bit halves;
  /// Zen 5's and Sapphire Rapids' 512-bit units run an 8-lane FMA at half their rate.
  bool half_vectors_full_rate = false;

  /// Accumulators a conv register tile may hold: the register file less two weight vectors,
  /// a broadcast and a spare (28 of AVX-512's 32 zmm, 12 of AVX2's 16 ymm). A tile sized for
  /// AVX-512 spills on an AVX2 host and runs several times slower there.
  [[nodiscard]] int tile_accumulators() const { return vector_registers - 4; }
  /// Vectors a block of `channels` floats spans, the last one partial: the accumulators a
  /// register tile needs per pixel of a `channels`-wide output block.
  [[nodiscard]] int64_t vectors_spanning(int64_t channels) const { return (channels + vector_lanes - 1) / vector_lanes; }
};

/// Host CPU as the JIT sees it (computed once per process).
[[nodiscard]] const HostInfo& host_info();

}  // namespace layoutopt::kernels
