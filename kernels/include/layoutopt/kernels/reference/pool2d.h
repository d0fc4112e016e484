#pragma once
// Reference pooling on NCHW tensors.

#include <cstdint>

#include "layoutopt/kernels/reference/host_tensor.h"

namespace layoutopt::kernels::reference {

struct Pool2dParams {
  bool max = true;
  int64_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1;
  int64_t pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
  bool count_include_pad = false;
  int64_t out_h = 0, out_w = 0;  ///< given by the caller (ceil mode decides them)
};

/// Windows are clipped to the input; padding never wins a max and counts for an average
/// only with count_include_pad (then up to the padded extent, as PyTorch does).
[[nodiscard]] HostTensor pool2d(const HostTensor& x, const Pool2dParams& params);
[[nodiscard]] HostTensor global_avg_pool(const HostTensor& x);

}  // namespace layoutopt::kernels::reference
