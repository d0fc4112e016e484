#pragma once
// Max / average pool2d in NCHW[x]c (input and output share the block x). Any kernel, stride
// and (asymmetric) padding; the output extents are given by the caller, so ceil-mode
// pooling is just a larger out_h / out_w. Windows are clipped to the input: padding never
// wins a max, and counts for an average only with count_include_pad (then up to the padded
// border, as in PyTorch / ONNX). Work items are (n, channel block, output row).

#include <cstdint>
#include <string>

#include "layoutopt/kernels/config_space.h"
#include "layoutopt/kernels/kernel.h"
#include "layoutopt/kernels/tensor_desc.h"
#include "layoutopt/layout/layout.h"

namespace layoutopt::kernels {

enum class PoolKind { max, average };

struct Pool2dDesc {
  TensorDesc input;  ///< the output has the same batch, channels and block
  PoolKind kind = PoolKind::max;
  int64_t kernel_h = 1, kernel_w = 1;
  int64_t stride_h = 1, stride_w = 1;
  int64_t pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
  bool count_include_pad = false;  ///< average only
  int64_t out_h = 0, out_w = 0;    ///< floor or ceil mode: the caller's choice

  /// Output tensor (out_h x out_w, same batch / channels / block).
  [[nodiscard]] TensorDesc output() const;
  /// Throws KernelError naming the problem. Besides positive sizes it requires padding
  /// smaller than the kernel and every window to start inside the padded input (the last
  /// one before the bottom / right padding), so each window covers at least one element.
  void validate() const;
  [[nodiscard]] std::string str() const;
  bool operator==(const Pool2dDesc&) const = default;
};

struct Pool2dSchedule {
  int64_t ow_bn = 1;  ///< output columns per register tile

  [[nodiscard]] std::string str() const { return "ow" + std::to_string(ow_bn); }
  bool operator==(const Pool2dSchedule&) const = default;
};

struct Pool2dLayouts {
  layout::Layout input;   ///< NCHW[x]c
  layout::Layout output;  ///< NCHW[x]c
};

/// Knob tile_ow: 1 .. min(out_w, 16).
[[nodiscard]] ConfigSpace pool2d_space(const Pool2dDesc& desc);
[[nodiscard]] Pool2dSchedule pool2d_schedule_at(const ConfigSpace& space, int64_t index);
/// A register tile of about 16 vectors.
[[nodiscard]] Pool2dSchedule pool2d_default_schedule(const Pool2dDesc& desc);
/// Throws KernelError for an invalid desc or ow_bn outside [1, out_w].
void validate_pool2d(const Pool2dDesc& desc, const Pool2dSchedule& schedule);
[[nodiscard]] Pool2dLayouts pool2d_layouts(const Pool2dDesc& desc);
/// KernelArgs: input, output.
[[nodiscard]] Kernel compile_pool2d(const Pool2dDesc& desc, const Pool2dSchedule& schedule);

}  // namespace layoutopt::kernels
