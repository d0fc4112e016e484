#pragma once
// The copy kernel behind concat and channel slice: channels [in_offset, in_offset + channels)
// of an NCHW[in_block]c input are written into channels [out_offset, out_offset + channels)
// of an NCHW[out_block]c output. Concat writes a range of its output (in_offset 0); a slice
// reads a range of its input (out_offset 0).
//
// Both blocks split the copied channels into runs of gcd(in_block, out_block) channels that
// are contiguous on both sides, so one output pixel's block is out_block / run vector copies
// (one whole-block copy when the blocks match). Work item: (n, output block of the range, row).

#include <cstdint>
#include <string>

#include "layoutopt/kernels/kernel.h"

namespace layoutopt::kernels::ops {

struct ChannelCopy {
  int64_t batch = 1, height = 1, width = 1;
  int64_t channels = 0;  ///< copied; a multiple of out_block
  int64_t in_channels = 0, in_block = 1;
  int64_t in_offset = 0;  ///< a multiple of gcd(in_block, out_block), so runs stay contiguous
  int64_t out_channels = 0, out_block = 1;
  int64_t out_offset = 0;  ///< a multiple of out_block

  [[nodiscard]] int64_t work_items() const { return batch * (channels / out_block) * height; }
  [[nodiscard]] std::string str() const;
};

/// Emits and JIT-compiles the copy kernel; `kind` names it ("concat", "channel_slice").
[[nodiscard]] CompiledFunction compile_channel_copy(const ChannelCopy& copy, const std::string& kind);

}  // namespace layoutopt::kernels::ops
