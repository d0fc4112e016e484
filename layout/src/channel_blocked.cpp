#include "channel_blocked.h"

#include <array>

namespace layoutopt::layout::detail {

namespace {

// Offset tables an [outer][C/b][spatial][b] tensor would have; spatial axes are row-major.
bool has_blocked_offsets(const IndexMap& map, const ChannelBlocked& view) {
  const std::vector<int64_t>& shape = map.logical_shape();
  const int64_t b = view.block;
  for (int64_t n = 0; n < view.outer; ++n)
    if (map.axis_offsets(0)[static_cast<size_t>(n)] != n * view.channels * view.spatial) return false;
  for (int64_t c = 0; c < view.channels; ++c)
    if (map.axis_offsets(1)[static_cast<size_t>(c)] != (c / b) * view.spatial * b + c % b) return false;
  int64_t stride = b;
  for (size_t axis = shape.size(); axis-- > 2;) {
    for (int64_t x = 0; x < shape[axis]; ++x)
      if (map.axis_offsets(axis)[static_cast<size_t>(x)] != x * stride) return false;
    stride *= shape[axis];
  }
  return true;
}

}  // namespace

std::optional<ChannelBlocked> as_channel_blocked(const IndexMap& map, int64_t channel_block) {
  const std::vector<int64_t>& shape = map.logical_shape();
  if (shape.size() < 2) return std::nullopt;
  ChannelBlocked view{shape[0], shape[1], 1, 1};
  for (size_t axis = 2; axis < shape.size(); ++axis) view.spatial *= shape[axis];
  // The declared block covers NCHW[x]c; a block of all channels covers NHWC-like orders.
  for (const int64_t block : std::array{channel_block, view.channels}) {
    if (block < 1 || view.channels % block != 0) continue;
    view.block = block;
    if (has_blocked_offsets(map, view)) return view;
  }
  return std::nullopt;
}

}  // namespace layoutopt::layout::detail
