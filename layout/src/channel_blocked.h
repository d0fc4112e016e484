#pragma once
// Recognises tensors whose memory is [outer][channels / block][spatial][block], the shape
// every fast transform path works on. Axis 0 of the canonical order is "outer", axis 1 the
// channels, the rest is flattened into "spatial". NCHW is block 1, NCHW16c block 16, NHWC
// block = channels, NC16c block 16 with spatial 1. Recognition compares offset tables, so
// any layout string with the same memory order qualifies.

#include <cstdint>
#include <optional>

#include "layoutopt/layout/index_map.h"

namespace layoutopt::layout::detail {

struct ChannelBlocked {
  int64_t outer = 1;
  int64_t channels = 1;
  int64_t spatial = 1;
  int64_t block = 1;
  /// Same tensor viewed with a different block.
  [[nodiscard]] bool same_tensor(const ChannelBlocked& other) const {
    return outer == other.outer && channels == other.channels && spatial == other.spatial;
  }
};

/// The channel-blocked view of `map`, or nothing when its memory order is not of that form.
/// `channel_block` is the block the layout string declares for axis 1 (1 when unsplit).
std::optional<ChannelBlocked> as_channel_blocked(const IndexMap& map, int64_t channel_block);

}  // namespace layoutopt::layout::detail
