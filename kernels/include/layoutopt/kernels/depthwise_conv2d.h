#pragma once
// Depthwise conv2d (groups == in_channels == out_channels) in NCHW[c_bn]c. One channel block
// is one vector of accumulators per output pixel: the input is loaded as vectors, not
// broadcast, so this needs its own schedule space rather than conv2d's with ic_bn = 1.

#include <string>

#include "layoutopt/kernels/config_space.h"
#include "layoutopt/kernels/conv2d_desc.h"
#include "layoutopt/kernels/kernel.h"
#include "layoutopt/layout/layout.h"

namespace layoutopt::kernels {

struct DepthwiseConv2dSchedule {
  int64_t c_bn = 1;   ///< channel block of the input and of the computed output: NCHW[c_bn]c
  int64_t ow_bn = 1;  ///< register tile along output width
  int64_t oh_bn = 1;  ///< register tile along output height
  /// Channel block of the stored output (0: c_bn), a layout change fused into the stores as
  /// in Conv2dSchedule::store_bn.
  int64_t store_bn = 0;

  [[nodiscard]] int64_t stored_block() const { return store_bn == 0 ? c_bn : store_bn; }
  [[nodiscard]] std::string str() const;
  bool operator==(const DepthwiseConv2dSchedule&) const = default;
};

struct DepthwiseConv2dLayouts {
  layout::Layout input;   ///< NCHW[c_bn]c
  layout::Layout weight;  ///< OIHW1i[c_bn]o (logical weight shape C x 1 x KH x KW)
  layout::Layout output;  ///< NCHW[stored_block()]c
};

/// Knobs tile_c, tile_ow, tile_oh, and the derived store_oc (0, then every divisor of the
/// channels), which search leaves at 0 (tuning/layout_variants.h).
[[nodiscard]] ConfigSpace depthwise_conv2d_space(const Conv2dDesc& desc);
[[nodiscard]] DepthwiseConv2dSchedule depthwise_conv2d_schedule_at(const ConfigSpace& space,
                                                                   int64_t index);
/// The untuned schedule by rule: the activations' channel block (default_channel_block), a
/// row of at most 8 pixels whose accumulators take at most half the vector registers.
[[nodiscard]] DepthwiseConv2dSchedule depthwise_conv2d_default_schedule(const Conv2dDesc& desc);
/// Throws KernelError unless desc is depthwise and the schedule fits it.
void validate_depthwise_conv2d(const Conv2dDesc& desc, const DepthwiseConv2dSchedule& schedule);
[[nodiscard]] DepthwiseConv2dLayouts depthwise_conv2d_layouts(const Conv2dDesc& desc,
                                                              const DepthwiseConv2dSchedule& schedule);
[[nodiscard]] Kernel compile_depthwise_conv2d(const Conv2dDesc& desc,
                                              const DepthwiseConv2dSchedule& schedule);

}  // namespace layoutopt::kernels
