#include "layoutopt/kernels/depthwise_conv2d.h"

#include <algorithm>

#include "conv/depthwise_reduction.h"
#include "conv/direct_conv_emitter.h"
#include "jit/kernel_cache.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/host.h"
#include "layoutopt/kernels/layout_knobs.h"
#include "layoutopt/kernels/tunable_op.h"

namespace layoutopt::kernels {

namespace {

// Depthwise tiles hold one accumulator per (pixel, chunk); 16..28 pixels fill AVX-512.
constexpr int64_t kMaxTileWidth = 32;
constexpr int64_t kMaxTileHeight = 4;

// The default tile: at most 8 pixels of one row, and accumulators for at most half the vector
// registers. Why half: every tap also keeps its weight vectors and the input vectors of the
// row in registers, and a tile past that spills. On AVX2 (16 ymm) a 16-channel block is two
// vectors, so 4 pixels: resnet-sized 3x3 and 5x5 depthwise convs ran 0.44-0.75x the time of
// 8-pixel tiles (Zen 3; docs/design/default-schedules.md); AVX-512 keeps 8 of one vector.
constexpr int64_t kDefaultTileWidth = 8;

void require(bool ok, const Conv2dDesc& desc, const DepthwiseConv2dSchedule& schedule, const std::string& what) {
  if (!ok)
    throw KernelError("invalid depthwise conv2d schedule " + schedule.str() + " for " + desc.str() + ": " + what);
}

}  // namespace

std::string DepthwiseConv2dSchedule::str() const {
  return "c" + std::to_string(c_bn) + "_ow" + std::to_string(ow_bn) + "_oh" + std::to_string(oh_bn) +
         layout_suffix(kStoreKnob, store_bn);
}

ConfigSpace depthwise_conv2d_space(const Conv2dDesc& desc) {
  validate_depthwise_conv2d(desc, {});
  ConfigSpace space;
  namespace k = knobs::depthwise_conv2d;
  space.add(k::tile_c, divisors(desc.in_channels));
  space.add(k::tile_ow, inclusive_range(1, std::min(desc.out_w(), kMaxTileWidth)));
  space.add(k::tile_oh, inclusive_range(1, std::min(desc.out_h(), kMaxTileHeight)));
  add_layout_knob(space, kStoreKnob, desc.out_channels);
  return space;
}

DepthwiseConv2dSchedule depthwise_conv2d_default_schedule(const Conv2dDesc& desc) {
  validate_depthwise_conv2d(desc, {});
  const HostInfo& host = host_info();
  DepthwiseConv2dSchedule s;
  s.c_bn = default_channel_block(desc.in_channels);  // the activations' block: no transform
  const int64_t pixels = std::max<int64_t>(1, host.vector_registers / 2 / host.vectors_spanning(s.c_bn));
  s.ow_bn = std::min({desc.out_w(), kDefaultTileWidth, pixels});
  s.oh_bn = 1;
  return s;
}

DepthwiseConv2dSchedule depthwise_conv2d_schedule_at(const ConfigSpace& space, int64_t index) {
  const auto point = space.point(index);
  namespace k = knobs::depthwise_conv2d;
  return {point.at(k::tile_c.name), point.at(k::tile_ow.name), point.at(k::tile_oh.name), point.at(kStoreKnob.name)};
}

void validate_depthwise_conv2d(const Conv2dDesc& desc, const DepthwiseConv2dSchedule& s) {
  desc.validate();
  require(desc.is_depthwise(), desc, s, "depthwise needs groups == in_channels == out_channels");
  require(!desc.input_scale, desc, s, "the depthwise kernel takes no input scale (the direct conv2d kernel does)");
  require(s.c_bn > 0 && desc.in_channels % s.c_bn == 0, desc, s,
          "c_bn must divide the channel count " + std::to_string(desc.in_channels));
  require(s.ow_bn > 0 && s.ow_bn <= desc.out_w(), desc, s,
          "ow_bn must lie in [1, out_w = " + std::to_string(desc.out_w()) + "]");
  require(s.oh_bn > 0 && s.oh_bn <= desc.out_h(), desc, s,
          "oh_bn must lie in [1, out_h = " + std::to_string(desc.out_h()) + "]");
  require(valid_layout_block(s.store_bn, desc.out_channels), desc, s,
          "store_bn must be 0 or divide the channel count " + std::to_string(desc.out_channels));
}

DepthwiseConv2dLayouts depthwise_conv2d_layouts(const Conv2dDesc& desc, const DepthwiseConv2dSchedule& schedule) {
  validate_depthwise_conv2d(desc, schedule);
  return {layout::Layout::nchwc(schedule.c_bn), layout::Layout::oihwio(1, schedule.c_bn),
          layout::Layout::nchwc(schedule.stored_block())};
}

Kernel compile_depthwise_conv2d(const Conv2dDesc& desc, const DepthwiseConv2dSchedule& schedule) {
  validate_depthwise_conv2d(desc, schedule);
  return Kernel(jit::cached_kernel("depthwise|" + desc.str() + "|" + schedule.str(), [&] {
    const conv::DepthwiseReduction reduction(schedule.c_bn, desc.kernel_h, desc.kernel_w);
    const conv::TileShape tiles{schedule.c_bn, schedule.c_bn,  schedule.oh_bn,         schedule.ow_bn, true,
                                false,         false,          schedule.stored_block()};
    return conv::compile_direct_conv(conv::make_geometry(desc, tiles), reduction, "depthwise");
  }));
}

}  // namespace layoutopt::kernels
