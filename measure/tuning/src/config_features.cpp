#include "layoutopt/tuning/config_features.h"

#include <cmath>
#include <map>
#include <string>

#include "layoutopt/kernels/host.h"
#include "layoutopt/kernels/knob_table.h"
#include "layoutopt/kernels/winograd_conv2d.h"

namespace layoutopt::tuning {

namespace {

// The schedule as a conv tile, whatever the family.
struct Tile {
  double in_block = 1, out_block = 1, ow = 1, oh = 1, unroll = 1, oc_inner = 0, prefetch = 0;
  double reduce_chunk = 0;  ///< input channels per pass; 0: one pass
  double flat = 0;          ///< the image tiled as one row of pixels (Conv2dSchedule::flat_pixels)
  double blocks = 1;        ///< output blocks per register tile (Conv2dSchedule::oc_tile_blocks)
  double along_pixels = 0;  ///< vectors run along the tile's pixels, not its channels (gemm_conv2d)
  double prefetch_input = 0;  ///< Conv2dSchedule::prefetch_input
};

// The workload dimensions the tile is judged against.
struct Extent {
  double batch = 1, in_channels = 1, out_channels = 1, out_h = 1, out_w = 1, kernel_h = 1, kernel_w = 1;
  double strides = 1;  ///< stride_h x stride_w: input pixels per output pixel
};

double knob(const std::map<std::string, int64_t>& knobs, const kernels::KnobDecl& decl, double fallback) {
  const auto found = knobs.find(decl.name);
  return found == knobs.end() ? fallback : static_cast<double>(found->second);
}

// Each family's knobs in the tile's terms; a knob the family lacks keeps the fallback.
Tile tile_of(const std::map<std::string, int64_t>& k) {
  namespace conv = kernels::knobs::conv2d;
  namespace knobs = kernels::knobs;
  namespace gemm = kernels::knobs::gemm_conv2d;
  const double channel = knob(k, knobs::depthwise_conv2d::tile_c, 1);
  // The GEMM over pixels tiles tile_channels output channels (as blocks of one channel) by
  // tile_pixels pixels of the image as one row.
  const bool along_pixels = k.contains(gemm::tile_pixels.name);
  return {knob(k, conv::tile_ic, knob(k, knobs::dense::tile_in, channel)),
          knob(k, conv::tile_oc, knob(k, knobs::dense::tile_out, channel)),
          knob(k, conv::tile_ow, knob(k, knobs::winograd_conv2d::tile_t, knob(k, gemm::tile_pixels, 1))),
          knob(k, conv::tile_oh, 1),
          knob(k, conv::unroll_kw, 1),
          knob(k, conv::oc_inner, 0),
          knob(k, conv::prefetch_weights, 0),
          knob(k, conv::reduce_chunk, 0),
          along_pixels ? 1.0 : knob(k, conv::flat_pixels, 0),
          knob(k, conv::tile_oc_blocks, knob(k, gemm::tile_channels, 1)),
          along_pixels ? 1.0 : 0.0,
          knob(k, conv::prefetch_input, 0)};
}

// A flat schedule's tile is oh x ow consecutive pixels of a one-row image: judged as such,
// its row-end tails and work items are those of that row.
void flatten(Tile& t, Extent& e) {
  if (t.flat == 0) return;
  t.ow *= t.oh;
  t.oh = 1;
  e.out_w *= e.out_h;
  e.out_h = 1;
}

// Winograd is judged by its middle stage, the batched product: one "row" per tile position
// (alpha^2 of them) of T tiles, and alpha^2 transformed weights per channel pair.
Extent winograd_extent(const kernels::Conv2dDesc& d, const std::map<std::string, int64_t>& knobs) {
  const double m = knob(knobs, kernels::knobs::winograd_conv2d::tile_m, 4), alpha = m + 2;
  const auto tiles = static_cast<double>(kernels::winograd_tile_grid(d, static_cast<int64_t>(m)).tiles());
  return {static_cast<double>(d.batch), static_cast<double>(d.in_channels), static_cast<double>(d.out_channels),
          alpha * alpha, tiles, alpha, alpha};
}

Extent extent_of(const kernels::TunableOp& op, const std::map<std::string, int64_t>& knobs) {
  if (op.family() == kernels::OpFamily::winograd_conv2d) return winograd_extent(op.conv_desc(), knobs);
  if (op.family() == kernels::OpFamily::dense) {
    const kernels::DenseDesc& d = op.dense_desc();
    return {static_cast<double>(d.batch), static_cast<double>(d.in_features), static_cast<double>(d.out_features)};
  }
  const kernels::Conv2dDesc& d = op.conv_desc();
  const bool depthwise = op.family() == kernels::OpFamily::depthwise_conv2d;
  const auto as_double = [](int64_t v) { return static_cast<double>(v); };
  return {as_double(d.batch),
          as_double(depthwise ? d.in_channels : d.in_channels_per_group()),
          as_double(depthwise ? d.out_channels : d.out_channels_per_group()),
          as_double(d.out_h()),
          as_double(d.out_w()),
          as_double(d.kernel_h),
          as_double(d.kernel_w),
          as_double(d.stride_h * d.stride_w)};
}

// `host` gives the vector width and the accumulators a tile holds before it spills (28 with
// AVX-512's 32 registers, 12 with AVX2's 16).
std::vector<float> features_of(const Tile& t, const Extent& e, const kernels::HostInfo& host, kernels::OpFamily family) {
  const double lanes = host.vector_lanes;
  // A tile of several blocks holds each block's accumulators (a group has at most its
  // blocks, a block of packed groups is one); the other features stay per block, the tile's
  // blocks a feature of their own.
  const double blocks = std::max(1.0, std::min(t.blocks, e.out_channels / t.out_block));
  // Vectors per pixel and channel block; along pixels, vectors per channel of the tile.
  const double vectors = std::ceil((t.along_pixels != 0 ? t.ow : t.out_block) / lanes);
  const double accumulators = t.along_pixels != 0 ? vectors * blocks : t.oh * t.ow * vectors * blocks;
  const double vector_fill = (t.along_pixels != 0 ? t.ow : t.out_block) / (vectors * lanes);
  const double width_tail = std::fmod(e.out_w, t.ow);
  const double work_items = e.batch * (e.out_channels / t.out_block) * std::ceil(e.out_h / t.oh);
  // Channels one reduction pass covers: the chunk in whole input blocks, or all of them.
  const double pass_channels =
      t.reduce_chunk > 0 ? std::min(e.in_channels, std::ceil(t.reduce_chunk / t.in_block) * t.in_block) : e.in_channels;
  const std::vector<double> f{
      std::log2(t.in_block),
      std::log2(t.out_block),
      t.ow,
      t.oh,
      t.unroll,
      std::log2(t.in_block * t.out_block),
      accumulators,
      accumulators > host.tile_accumulators() ? 1.0 : 0.0,
      std::fmod(t.out_block, lanes) == 0 ? 1.0 : 0.0,
      vector_fill,
      width_tail == 0 ? 1.0 : 0.0,
      width_tail / t.ow,
      std::log2(t.in_block * t.out_block * e.kernel_h * e.kernel_w * 4),
      std::log2(work_items),
      std::log2(e.in_channels / t.in_block),
      t.ow * t.oh,
      accumulators + vectors,
      std::fmod(t.in_block, lanes) == 0 ? 1.0 : 0.0,
      t.oc_inner,
      // Prefetching weights pays off when they come from memory: it depends on their size.
      t.prefetch,
      std::log2(e.in_channels * e.out_channels * e.kernel_h * e.kernel_w * 4),
      static_cast<double>(family),
      // Reduction passes: the weights one block reads per pass (against L1) and the passes.
      std::log2(pass_channels * t.out_block * e.kernel_h * e.kernel_w * 4),
      std::ceil(e.in_channels / pass_channels),
      t.flat,
      blocks,
      // Prefetching input rows pays off where each FMA needs much input: it depends on the stride.
      t.prefetch_input,
      e.strides};
  return {f.begin(), f.end()};
}

}  // namespace

std::vector<float> config_features(const TuningTask& task, int64_t index) {
  const std::map<std::string, int64_t> knobs = task.op.knobs(index);
  Tile tile = tile_of(knobs);
  Extent extent = extent_of(task.op, knobs);
  flatten(tile, extent);
  return features_of(tile, extent, kernels::host_info(), task.op.family());
}

bool tile_far_beyond_registers(const TuningTask& task, std::span<const float> features) {
  const kernels::OpFamily family = task.op.family();
  if (family != kernels::OpFamily::conv2d && family != kernels::OpFamily::group_conv2d) return false;
  const double limit = kMaxTileOverRegisters * kernels::host_info().tile_accumulators();
  return features[kAccumulatorsFeature] > limit;
}

std::vector<float> config_feature_rows(const TuningTask& task, const std::vector<int64_t>& indices) {
  std::vector<float> rows;
  rows.reserve(indices.size() * kConfigFeatureCount);
  for (int64_t index : indices) {
    const std::vector<float> row = config_features(task, index);
    rows.insert(rows.end(), row.begin(), row.end());
  }
  return rows;
}

}  // namespace layoutopt::tuning
