#pragma once
// TensorDesc: an activation tensor of logical shape N x C x H x W stored in NCHW[block]c
// (physical shape [N][C/block][H][W][block]; block 1 is plain NCHW). The shared part of the
// descriptors of the non-convolution operators (pooling, elementwise, concat, ...).

#include <cstdint>
#include <string>
#include <vector>

#include "layoutopt/layout/layout.h"

namespace layoutopt::kernels {

struct TensorDesc {
  int64_t batch = 1;
  int64_t channels = 0;
  int64_t height = 1;
  int64_t width = 1;
  int64_t block = 1;  ///< channel block x of NCHW[x]c; must divide channels

  [[nodiscard]] int64_t channel_blocks() const { return channels / block; }
  [[nodiscard]] int64_t elements() const { return batch * channels * height * width; }
  /// Logical shape {N, C, H, W}.
  [[nodiscard]] std::vector<int64_t> shape() const { return {batch, channels, height, width}; }
  /// NCHW[block]c (NCHW1c for block 1, as the conv2d operators report it).
  [[nodiscard]] layout::Layout layout() const { return layout::Layout::nchwc(block); }
  /// Throws KernelError "invalid <op> desc <desc_text>: ..." for non-positive extents or a block
  /// that does not divide the channels.
  void validate(const std::string& op, const std::string& desc_text) const;
  /// Stable text, e.g. "n1_c64_h56_w56_x16".
  [[nodiscard]] std::string str() const;

  bool operator==(const TensorDesc&) const = default;
};

}  // namespace layoutopt::kernels
