#pragma once
// Slices of tensors in any layout that keeps the sliced axis whole, as channel-slice kernels:
// Swin's cyclic shift (step 1 along H or W of [1, 56, 56, 96] in NCHW8c) and its patch
// merging (x[:, 0::2, 0::2, :], step 2).

#include <optional>

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/channel_slice.h"
#include "layoutopt/layout/layout.h"

namespace layoutopt::kernels::network {

/// With input and output both in `layout` and the sliced axis one physical axis of it, the
/// memory is [outer][extent][inner] (inner: that axis's step). A step-1 slice keeps floats
/// [start * inner, end * inner) of each of the outer rows; a step-s slice of an extent that s
/// divides, starting below s and keeping extent / s positions, keeps floats
/// [start * inner, (start + 1) * inner) of each of the outer * extent / s rows of s * inner.
/// Nothing for other slices, which the reference runs.
[[nodiscard]] std::optional<ChannelSliceDesc> layout_slice_desc(const graph::Graph& graph, graph::NodeId id,
                                                                const layout::Layout& layout);

}  // namespace layoutopt::kernels::network
