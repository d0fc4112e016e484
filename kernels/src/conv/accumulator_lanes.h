#pragma once
// How wide a register each vector chunk of a register tile computes in (no LLVM here, so
// tests and cost models can ask too).

#include <cstdint>

#include "layoutopt/kernels/host.h"

namespace layoutopt::kernels::conv {

/// Lanes of the register an accumulator of a `chunk_lanes`-wide chunk computes in. A chunk
/// of a vector type of its own (8, 4, 2 or 1 lanes beside 16) takes the whole vector where
/// the host runs a narrower FMA no faster than a full one (HostInfo::half_vectors_full_rate
/// false); other chunks keep their width (LLVM computes 12 lanes in a whole vector anyway).
/// Why: an 8-lane chunk beside a 16-lane one reads the low half of the same broadcast
/// register, and LLVM 16 then lets its FMA overwrite the broadcast, so the chunk's
/// accumulator moves to another register every step and wide tiles spill (a 144 -> 24 1x1
/// conv on 56x56 in 14-pixel tiles: 0.127 ms, 0.083 ms widened; docs/design/partial-vectors.md).
[[nodiscard]] int64_t accumulator_register_lanes(int64_t chunk_lanes, const HostInfo& host);

}  // namespace layoutopt::kernels::conv
