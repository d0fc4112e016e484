#pragma once
// The channel block untuned schedules keep activations in, by rule from the channel count and
// the host's vectors (evidence: docs/design/default-schedules.md).

#include <cstdint>

#include "layoutopt/kernels/host.h"

namespace layoutopt::kernels {

/// The default block of `channels` on `host`, in order:
///  - 16 where it divides them (a whole AVX-512 vector, two AVX2 ones);
///  - 8 where it divides them and 8 lanes run at the full rate (AVX2, Zen 4);
///  - else the divisor of at most four vectors with AVX-512 (two with AVX2's 16 registers)
///    whose vectors it fills best, the larger on a tie, where it fills more than half of them:
///    58 for shufflenet's 58, 116 and, with 512-bit units, 232; there 24 as one block of
///    16 + 8 lanes rather than three of 8, 440 as 44 of 48;
///  - else 8 where it divides them (half a vector), else 1 (plain NCHW).
/// Why: a block of part of a vector computes that part of each FMA, and neighbours that
/// default to different blocks need a transform between them; the masked blocks keep
/// shufflenet's 58-, 116- and 232-channel steps in one block, and a block of several vectors
/// feeds each broadcast to several FMAs (docs/design/default-schedules.md).
[[nodiscard]] int64_t default_channel_block(int64_t channels, const HostInfo& host);

/// default_channel_block on this host.
[[nodiscard]] int64_t default_channel_block(int64_t channels);

}  // namespace layoutopt::kernels
