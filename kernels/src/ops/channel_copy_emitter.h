#pragma once
// The copy kernel behind concat: input NCHW[in_block]c is written into channels
// [channel_offset, channel_offset + in_channels) of an NCHW[out_block]c output.
//
// Both blocks split the copied channels into runs of gcd(in_block, out_block) channels that
// are contiguous on both sides, so one output pixel's block is out_block / run vector copies
// (one whole-block copy when the blocks match). Work item: (n, output block of the slice, row).

#include <cstdint>
#include <string>

#include "layoutopt/kernels/kernel.h"

namespace layoutopt::kernels::ops {

struct ChannelCopy {
  int64_t batch = 1, height = 1, width = 1;
  int64_t in_channels = 0, in_block = 1;
  int64_t out_channels = 0, out_block = 1;
  int64_t channel_offset = 0;  ///< multiple of out_block, as is in_channels

  [[nodiscard]] int64_t work_items() const { return batch * (in_channels / out_block) * height; }
  [[nodiscard]] std::string str() const;
};

/// Emits and JIT-compiles the copy kernel.
[[nodiscard]] CompiledFunction compile_channel_copy(const ChannelCopy& copy);

}  // namespace layoutopt::kernels::ops
