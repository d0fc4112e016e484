#include "layoutopt/kernels/gemm_conv2d.h"

#include <algorithm>

#include "ceil_div.h"
#include "jit/kernel_cache.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/host.h"
#include "layoutopt/kernels/tunable_op.h"
#include "ops/batched_gemm_emitter.h"

namespace layoutopt::kernels {

namespace {

void require(bool ok, const Conv2dDesc& desc, const GemmConv2dSchedule& schedule, const std::string& what) {
  if (!ok) throw KernelError("invalid gemm_conv2d schedule " + schedule.str() + " for " + desc.str() + ": " + what);
}

int64_t pixels(const Conv2dDesc& d) { return d.out_h() * d.out_w(); }

// Output channels per register tile the space offers: 8 rows of two vectors are 16
// accumulators, past AVX2's budget; with AVX-512 more rows add little once each broadcast
// feeds two FMAs.
constexpr int64_t kMaxTileChannels = 8;
// Vectors of pixels per register tile the space offers.
constexpr int64_t kMaxTileVectors = 4;

// Pixel tiles: whole vectors up to kMaxTileVectors, the image's pixels where fewer.
std::vector<int64_t> tile_pixel_values(const Conv2dDesc& d) {
  const int64_t lanes = host_info().vector_lanes;
  std::vector<int64_t> values;
  for (int64_t vectors = 1; vectors <= kMaxTileVectors && vectors * lanes < pixels(d); ++vectors)
    values.push_back(vectors * lanes);
  const int64_t widest = std::min(pixels(d), kMaxTileVectors * lanes);
  if (values.empty() || values.back() != widest) values.push_back(widest);
  return values;
}

}  // namespace

std::string GemmConv2dSchedule::str() const {
  return "gemm_ch" + std::to_string(channels_bn) + "_px" + std::to_string(pixels_bn);
}

bool gemm_conv2d_applicable(const Conv2dDesc& desc) {
  return conv2d_flattens(desc) && desc.groups == 1 && !desc.input_scale && !desc.prologue;
}

bool gemm_conv2d_offered(const Conv2dDesc& desc) {
  const int64_t lanes = host_info().vector_lanes;
  return gemm_conv2d_applicable(desc) && desc.batch * pixels(desc) >= lanes &&
         (desc.in_channels % lanes != 0 || desc.out_channels % lanes != 0);
}

bool gemm_conv2d_by_default(const Conv2dDesc& desc) {
  return gemm_conv2d_offered(desc) && default_channel_block(desc.in_channels) == 1 &&
         default_channel_block(desc.out_channels) == 1;
}

ConfigSpace gemm_conv2d_space(const Conv2dDesc& desc) {
  desc.validate();
  ConfigSpace space;
  namespace k = knobs::gemm_conv2d;
  space.add(k::tile_channels, inclusive_range(1, std::min(desc.out_channels, kMaxTileChannels)));
  space.add(k::tile_pixels, tile_pixel_values(desc));
  return space;
}

GemmConv2dSchedule gemm_conv2d_schedule_at(const ConfigSpace& space, int64_t index) {
  const auto point = space.point(index);
  namespace k = knobs::gemm_conv2d;
  return {point.at(k::tile_channels.name), point.at(k::tile_pixels.name)};
}

GemmConv2dSchedule gemm_conv2d_default_schedule(const Conv2dDesc& desc) {
  desc.validate();
  const int64_t lanes = host_info().vector_lanes;
  GemmConv2dSchedule s;
  s.pixels_bn = std::min(pixels(desc), 2 * lanes);
  const int64_t vectors = ceil_div(s.pixels_bn, lanes);
  s.channels_bn = std::clamp<int64_t>(host_info().tile_accumulators() / vectors, 1,
                                      std::min(desc.out_channels, kMaxTileChannels));
  return s;
}

void validate_gemm_conv2d(const Conv2dDesc& desc, const GemmConv2dSchedule& s) {
  desc.validate();
  require(gemm_conv2d_applicable(desc), desc, s,
          "the GEMM over pixels needs a 1x1 kernel, stride 1, no padding, one group and no input scale");
  require(s.channels_bn > 0 && s.channels_bn <= desc.out_channels, desc, s,
          "channels_bn must lie in [1, out_channels = " + std::to_string(desc.out_channels) + "]");
  require(s.pixels_bn > 0 && s.pixels_bn <= pixels(desc), desc, s,
          "pixels_bn must lie in [1, out_h x out_w = " + std::to_string(pixels(desc)) + "]");
}

Conv2dLayouts gemm_conv2d_layouts(const Conv2dDesc& desc, const GemmConv2dSchedule& schedule) {
  validate_gemm_conv2d(desc, schedule);
  return {layout::Layout::nchwc(1), layout::Layout::oihwio(1, 1), layout::Layout::nchwc(1)};
}

Kernel compile_gemm_conv2d(const Conv2dDesc& desc, const GemmConv2dSchedule& schedule) {
  validate_gemm_conv2d(desc, schedule);
  return Kernel(jit::cached_kernel("gemm_conv2d|" + desc.str() + "|" + schedule.str(), [&] {
    jit::KernelModule module("gemm_conv2d");
    // a = weights [out_channels, in_channels] for every image, b = image n's [in_channels, pixels].
    const ops::BatchedGemmShape shape{{desc.out_channels, desc.in_channels},
                                      {desc.batch, desc.in_channels, pixels(desc)},
                                      {desc.batch, desc.out_channels, pixels(desc)}};
    ops::BatchedGemmEmitter emitter(shape, {schedule.channels_bn, schedule.pixels_bn},
                                    {.a_is_weight = true, .epilogue = desc.epilogue}, module);
    emitter.emit();
    return module.compile(emitter.work_items(), desc.epilogue);
  }));
}

}  // namespace layoutopt::kernels
