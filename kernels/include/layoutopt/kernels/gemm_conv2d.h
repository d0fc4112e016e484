#pragma once
// conv2d as a GEMM over pixels, on plain NCHW activations: for a 1x1, stride-1, unpadded,
// ungrouped conv, output[n] (out_channels x pixels) = weights (out_channels x in_channels) x
// input[n] (in_channels x pixels), every matrix row-major as NCHW and OIHW lay them out. The
// register tile is tile_channels output channels by tile_pixels pixels, its vectors along the
// pixels: each reduction step loads a row of the input as vectors and multiplies it by one
// broadcast weight per output channel (ops/batched_gemm_emitter.h), and the epilogue adds
// bias[channel] splat over the row.
//
// Why a second algorithm: the direct kernel's vectors run along channels, so a layer whose
// channels no vector divides (shufflenet's 58 and 116, res2net's 26) computes in blocks of
// part of a vector (2 or 4 of 8 lanes) and stores NCHW one float at a time; along pixels every
// lane is used whatever the channel count (docs/design/gemm-conv.md).

#include <cstdint>
#include <string>

#include "layoutopt/kernels/config_space.h"
#include "layoutopt/kernels/conv2d.h"
#include "layoutopt/kernels/conv2d_desc.h"
#include "layoutopt/kernels/kernel.h"

namespace layoutopt::kernels {

struct GemmConv2dSchedule {
  int64_t channels_bn = 1;  ///< output channels per register tile (the last tile may hold fewer)
  int64_t pixels_bn = 1;    ///< pixels per register tile, along the vectors (the last may hold fewer)

  [[nodiscard]] std::string str() const;
  bool operator==(const GemmConv2dSchedule&) const = default;
};

/// 1x1 kernel, stride 1, no padding (conv2d_flattens), one group, no input scale.
[[nodiscard]] bool gemm_conv2d_applicable(const Conv2dDesc& desc);
/// Whether tuning tries it: where it applies, the image holds at least a vector of pixels,
/// and a vector does not divide the input or the output channels, so that the direct kernel
/// reduces or computes in parts of vectors. Where vectors divide both, the direct kernel fills
/// them too and reads and writes blocked layouts, which the GEMM's NCHW would only add
/// transforms to; on a squeeze-and-excitation conv's 1x1 map its vectors would hold one lane.
/// A task there would take its share of a quick budget for nothing.
[[nodiscard]] bool gemm_conv2d_offered(const Conv2dDesc& desc);
/// Whether the untuned default computes `desc` by GEMM: where it applies and both its input
/// and its output stay plain NCHW by default (default_channel_block 1: no default block fills
/// more than half of its vectors, as for 134 = 2 x 67 channels, or shufflenet's 58 with AVX2)
/// and it is offered, so the default network needs no transform for it.
[[nodiscard]] bool gemm_conv2d_by_default(const Conv2dDesc& desc);

/// Knobs tile_channels and tile_pixels (knob_table.h).
[[nodiscard]] ConfigSpace gemm_conv2d_space(const Conv2dDesc& desc);
[[nodiscard]] GemmConv2dSchedule gemm_conv2d_schedule_at(const ConfigSpace& space, int64_t index);
/// Two vectors of pixels (fewer on a smaller image) by as many output channels as the
/// accumulators allow: each broadcast weight then feeds two FMAs.
[[nodiscard]] GemmConv2dSchedule gemm_conv2d_default_schedule(const Conv2dDesc& desc);
/// Throws KernelError naming the problem.
void validate_gemm_conv2d(const Conv2dDesc& desc, const GemmConv2dSchedule& schedule);
/// Plain NCHW input and output, plain OIHW weights.
[[nodiscard]] Conv2dLayouts gemm_conv2d_layouts(const Conv2dDesc& desc, const GemmConv2dSchedule& schedule);
[[nodiscard]] Kernel compile_gemm_conv2d(const Conv2dDesc& desc, const GemmConv2dSchedule& schedule);

}  // namespace layoutopt::kernels
