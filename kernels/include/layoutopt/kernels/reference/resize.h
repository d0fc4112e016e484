#pragma once
// Reference spatial resize of an NCHW tensor exactly as ONNX Resize defines it for the
// nearest and linear modes: each output coordinate maps to an input coordinate by the
// coordinate transformation, then nearest rounds it (nearest_mode) or linear interpolates
// its two neighbours per axis; coordinates past the edges clamp to the edge pixels.

#include "layoutopt/graph/ops.h"
#include "layoutopt/kernels/reference/host_tensor.h"

namespace layoutopt::kernels::reference {

/// x [N, C, H, W] to [N, C, attrs.size.h, attrs.size.w].
[[nodiscard]] HostTensor resize(const HostTensor& x, const graph::Resize& attrs);

}  // namespace layoutopt::kernels::reference
