#pragma once
// Reference spatial resize of an NCHW tensor exactly as ONNX Resize defines it for the
// nearest and linear modes: each output coordinate maps to an input coordinate by the
// coordinate transformation, then nearest rounds it (nearest_mode) or linear interpolates
// its two neighbours per axis; coordinates past the edges clamp to the edge pixels.

#include <cstdint>
#include <vector>

#include "layoutopt/graph/ops.h"
#include "layoutopt/kernels/reference/host_tensor.h"

namespace layoutopt::kernels::reference {

/// Where one output coordinate reads along one axis: (1 - weight) * low + weight * high
/// (nearest mode: low alone, weight 0). The blocked resize kernel reads the same taps.
struct ResizeTap {
  int64_t low = 0, high = 0;
  double weight = 0.0;
};

/// The taps of every output coordinate [0, out_extent) of one axis of extent `in_extent`;
/// `scale` is the attribute's divisor along that axis.
[[nodiscard]] std::vector<ResizeTap> resize_taps(const graph::Resize& attrs, int64_t in_extent, int64_t out_extent,
                                                 double scale);

/// x [N, C, H, W] to [N, C, attrs.size.h, attrs.size.w].
[[nodiscard]] HostTensor resize(const HostTensor& x, const graph::Resize& attrs);

}  // namespace layoutopt::kernels::reference
