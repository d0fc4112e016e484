#pragma once
// Reference pooling on NCHW tensors. It takes the same descriptor as the blocked kernel
// (the block is ignored: the reference always works in NCHW).

#include "layoutopt/kernels/pool2d.h"
#include "layoutopt/kernels/reference/host_tensor.h"

namespace layoutopt::kernels::reference {

/// Windows are clipped to the input; padding never wins a max and counts for an average
/// only with count_include_pad (then up to the padded extent, as PyTorch does).
[[nodiscard]] HostTensor pool2d(const HostTensor& x, const Pool2dDesc& desc);
[[nodiscard]] HostTensor global_avg_pool(const HostTensor& x);

}  // namespace layoutopt::kernels::reference
