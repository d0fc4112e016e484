#include "layoutopt/kernels/winograd_conv2d.h"

#include <algorithm>
#include <atomic>

#include <omp.h>

#include "ceil_div.h"
#include "conv2d_stage.h"
#include "conv/accumulator_tile.h"
#include "conv/winograd_geometry.h"
#include "conv/winograd_matrices.h"
#include "conv/winograd_transform_emitter.h"
#include "jit/kernel_cache.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/host.h"
#include "layoutopt/kernels/layout_knobs.h"
#include "layoutopt/kernels/tunable_op.h"
#include "layoutopt/layout/transform.h"

namespace layoutopt::kernels {

namespace {

// What winograd_applicable asks of a convolution, for the errors that reject one.
constexpr const char* kApplicability = "needs a 3x3 kernel, stride 1, groups 1 and no input scale";
// The tuner's values of band_rows (0: whole stages).
const std::vector<int64_t> kBandRows{0, 1, 2, 4};

void require(bool ok, const Conv2dDesc& desc, const WinogradSchedule& schedule, const std::string& what) {
  if (!ok) throw KernelError("invalid winograd conv2d schedule " + schedule.str() + " for " + desc.str() + ": " + what);
}

conv::WinogradGeometry geometry_of(const Conv2dDesc& d, const WinogradSchedule& s) {
  const conv::WinogradMatrices& t = conv::winograd_matrices(s.m);
  conv::WinogradGeometry g{.batch = d.batch,
                           .in_channels = d.in_channels,
                           .out_channels = d.out_channels,
                           .in_h = d.in_h,
                           .in_w = d.in_w,
                           .out_h = d.out_h(),
                           .out_w = d.out_w(),
                           .pad_top = d.pad_top,
                           .pad_left = d.pad_left,
                           .dilation_h = d.dilation_h,
                           .dilation_w = d.dilation_w,
                           .m = t.m,
                           .alpha = t.alpha,
                           .ic_bn = s.ic_bn,
                           .oc_bn = s.oc_bn,
                           .band_rows = 0,
                           .store_bn = s.stored_block(),
                           .epilogue = d.epilogue};
  // A band of all the image's tile rows is the whole-stage kernel: every knob value is valid
  // for every image (as tile_t for every tile_m), some the same kernel as others.
  if (s.band_rows < g.tiles_h()) g.band_rows = s.band_rows;
  return g;
}

/// The middle stage: a 1x1 convolution with alpha^2 groups over a 1 x T image of V (T: the
/// tiles V holds of an image, a band's when banded).
Conv2dDesc batched_product_desc(const conv::WinogradGeometry& g) {
  Conv2dDesc d;
  d.batch = g.buffered_images();
  d.in_channels = g.positions() * g.in_channels;
  d.in_h = 1;
  d.in_w = g.band_tiles();
  d.out_channels = g.positions() * g.out_channels;
  d.groups = g.positions();
  return d;
}

/// Its register tile runs along the tiles V holds: at most a band's.
Conv2dSchedule batched_product_schedule(const conv::WinogradGeometry& g, const WinogradSchedule& s) {
  Conv2dSchedule product{s.ic_bn, s.oc_bn, std::min(s.tile_t, g.band_tiles()), true, 1, s.oc_inner, s.prefetch_weights};
  product.oc_tile_blocks = s.oc_tile_blocks;
  return product;
}

/// The tiling whose tile count bounds the register tile: m = 2's, the finest, so a tile of
/// several output blocks can span the 16 tiles of 2 on a 7x7 map (4 x 6, where m = 4's 4
/// tiles would cap it at 4 x 4), and every tile_t recorded when m = 4's count bounded it
/// stays in the space. Coarser tilings may hold fewer tiles, and their middle stage clamps
/// the register tile to them as it does to a band's.
constexpr int64_t kRegisterTileTiling = 2;

/// The widest register tile of the space.
int64_t widest_register_tile(const Conv2dDesc& d) {
  return std::min(winograd_tile_grid(d, kRegisterTileTiling).tiles(), conv::kMaxTileWidth);
}

/// Tiles of m x m over the batch.
int64_t batch_tiles(const Conv2dDesc& d, int64_t m) { return d.batch * winograd_tile_grid(d, m).tiles(); }

/// Whether tiles of m x m leave enough of them for the default to run Winograd with.
bool enough_tiles(const Conv2dDesc& d, int64_t m) { return batch_tiles(d, m) >= kWinogradDefaultMinTiles; }

/// Tile positions (alpha^2 each) the product multiplies with tiles of m over the batch.
int64_t tile_positions(const Conv2dDesc& d, int64_t m) {
  const int64_t alpha = conv::winograd_matrices(m).alpha;
  return batch_tiles(d, m) * alpha * alpha;
}

/// Bytes of the product's transformed weights with tiles of m: alpha^2 positions of
/// out_channels x in_channels.
int64_t product_weight_bytes(const Conv2dDesc& d, int64_t m) {
  const int64_t alpha = conv::winograd_matrices(m).alpha;
  return alpha * alpha * d.out_channels * d.in_channels * static_cast<int64_t>(sizeof(float));
}

/// Whether tiles of 4 serve an image that leaves too few of them for enough_tiles: where
/// they still leave kWinogradSmallMapMinTiles, multiply fewer tile positions than tiles of 2
/// (14x14: 16 x 36 against 49 x 16), and tiles of 2's weights exceed L2. Why: there tiles of
/// 2 go through the product in bands, each rereading every weight once per register tile
/// from beyond L2, where tiles of 4 take two passes over theirs: inside the networks
/// resnet-50's 256 -> 256 convs on 14x14 took 0.91-0.96x the time and vgg-19's 512 -> 512
/// 0.85-0.96x. With weights in L2 (densenet's 128 -> 32) tiles of 4 ran 1.25x slower alone
/// (docs/design/winograd.md).
bool few_tiles_of_4_save_passes(const Conv2dDesc& d) {
  return batch_tiles(d, 4) >= kWinogradSmallMapMinTiles && tile_positions(d, 4) < tile_positions(d, 2) &&
         product_weight_bytes(d, 2) > host_info().l2_bytes;
}

/// The largest output tile that leaves enough tiles; 6 only where its tiles cover no more
/// outputs than tiles of 4 (35 x 35 maps: 36 x 36 either way), since the outputs past the
/// image cost as much as the others and F(6x6)'s weights are larger.
int64_t default_tile_size(const Conv2dDesc& d) {
  if (enough_tiles(d, 6) && batch_tiles(d, 6) * 6 * 6 <= batch_tiles(d, 4) * 4 * 4) return 6;
  return enough_tiles(d, 4) || few_tiles_of_4_save_passes(d) ? 4 : 2;
}

/// Floats of weights the direct default reads per image: its weights once per register tile
/// of an output block.
int64_t direct_weight_reads(const Conv2dDesc& d) {
  const Conv2dSchedule s = conv2d_default_schedule(d);
  const int64_t tiles = s.flat_pixels ? ceil_div(d.out_h() * d.out_w(), s.oh_bn * s.ow_bn)
                                      : ceil_div(d.out_h(), s.oh_bn) * ceil_div(d.out_w(), s.ow_bn);
  return tiles * d.weight_floats();
}

/// Floats of weights the default Winograd schedule's batched product reads per image: its
/// transformed weights once per register tile along the tiles of a band, for every band.
int64_t winograd_weight_reads(const Conv2dDesc& d) {
  const WinogradSchedule s = winograd_default_schedule(d);
  const conv::WinogradGeometry g = geometry_of(d, s);
  const int64_t register_tiles = ceil_div(g.band_tiles(), std::min(s.tile_t, g.band_tiles())) * g.bands();
  return register_tiles * g.positions() * d.out_channels * d.in_channels;
}

/// Whether Winograd's product reads at most two thirds of the bytes of weights the direct
/// default reads, on an image of fewer tiles than enough_tiles asks but at least
/// kWinogradSmallMapMinTiles of 2 x 2 (7x7 and 8x8 maps), with weights larger than L2. Why:
/// the direct kernel reads an output block's weights once per register tile, from beyond L2
/// for such weights: on a 7x7 map AVX2's tiles of 2 x 3 pixels are 12 per block, while the
/// product reads its weights, 1.8x as large, once per tile of 4 of its 16 tiles (7.1 against
/// 12 direct weights' worth: 0.53-0.65x the time in resnet-50, inception-v3 and
/// wide_resnet50_2). AVX-512's tiles of 2 x 7 are 4 (7.1 against 4), and there the direct
/// kernel was the faster one alone (docs/design/default-schedules.md, winograd.md).
bool saves_weight_reads(const Conv2dDesc& d) {
  if (batch_tiles(d, 2) < kWinogradSmallMapMinTiles) return false;
  if (d.weight_floats() * static_cast<int64_t>(sizeof(float)) <= host_info().l2_bytes) return false;
  return 3 * winograd_weight_reads(d) <= 2 * direct_weight_reads(d);
}

// Bands of one tile row on images of at least kWinogradDefaultMinBandedRows tile rows. On
// smaller images a band per thread of the team (OpenMP's thread count, which tuning, planning
// and running share; the band_rows of the space that cut as many bands) where each thread
// gets at least kWinogradMinBandTiles tiles: every thread then reads all the transformed
// weights, but its V and M never leave its core, and its product still does 8 or more FLOPs
// per weight byte, about the machine balance of current x86 servers. Whole stages split V's
// channels and M's positions between threads, so half of each crosses cores: resnet-50's
// 7 x 7 tiles of 128 and 256 channels ran 0.82x and 0.93x the time in two bands (AVX-512,
// Zen 5; docs/design/banded-winograd.md).
int64_t default_band_rows(const Conv2dDesc& d, int64_t m) {
  const WinogradTileGrid grid = winograd_tile_grid(d, m);
  if (grid.rows >= kWinogradDefaultMinBandedRows) return 1;
  const int64_t threads = omp_get_max_threads();
  if (threads < 2 || grid.tiles() < threads * kWinogradMinBandTiles) return 0;
  for (int64_t rows : kBandRows)  // a point of the space
    if (rows > 0 && ceil_div(grid.rows, rows) == threads) return rows;
  return 0;
}

// Blocks of 8 or 16 channels, where Winograd's default was measured; masked blocks (24, 58)
// would put a partial vector through every transform.
bool whole_vector_block(int64_t block) { return block == 8 || block == 16; }

// Register tiles t tiles wide along `tiles` tiles: the product's passes over its weights.
int64_t weight_passes(int64_t t, int64_t tiles) { return ceil_div(tiles, std::min(t, tiles)); }

// The narrowest register tile that covers `tiles` in as few tiles as `width` does: a band of
// 25 tiles in 5 tiles of 5, not 4 of 6 and one of 1 (which loads every weight for one tile;
// resnet-50's 7 x 7 tiles in two bands ran 0.92-0.94x the time so, AVX-512, Zen 5).
int64_t evenly_wide(int64_t width, int64_t tiles) { return ceil_div(tiles, weight_passes(width, tiles)); }

// The two-vector register tile as wide as the accumulators allow, evened out over the
// image's tiles, where it passes over the weights fewer times than s's tile. Why: a whole
// image's product rereads every weight once per register tile along its tiles, from beyond
// L2 when they exceed it, and two vectors by 8 tiles cover 16 tiles in two passes where 4 by
// 6 take three: inside the networks resnet-50's 512 -> 512 convs on 7x7 took 0.73-0.94x the
// time and inception-v3's 448 -> 384 on 8x8 0.81-0.83x (docs/design/winograd.md).
void take_fewer_weight_passes(const conv::WinogradGeometry& g, WinogradSchedule& s) {
  const HostInfo& host = host_info();
  const int64_t block_vectors = host.vectors_spanning(s.oc_bn);
  if (2 % block_vectors != 0) return;
  const int64_t tiles = g.band_tiles();
  const int64_t wide = evenly_wide(host.tile_accumulators() / 2, tiles);
  if (weight_passes(wide, tiles) >= weight_passes(s.tile_t, tiles)) return;
  s.oc_tile_blocks = 2 / block_vectors;
  s.tile_t = wide;
}

// The middle stage's register tile: the direct default's for that 1x1 conv (several output
// blocks per tile where they fill the registers better, each tile as wide as the band's
// tiles divide well), in s's output blocks. Where that tile is not a whole number of them
// (AVX2's tiles of 3 one-vector blocks against two-vector blocks of 16), or packs groups,
// one block per tile as wide as the accumulators allow. Why: one block per tile loads a
// broadcast of V per FMA; on ten layers of resnet-50 and inception-v3 (AVX-512) tiles of 2-4
// blocks ran the whole kernel in 0.60-0.88x the time (docs/design/default-schedules.md).
void set_product_tile(const Conv2dDesc& d, WinogradSchedule& s) {
  const HostInfo& host = host_info();
  const conv::WinogradGeometry g = geometry_of(d, s);
  const Conv2dDesc product_desc = batched_product_desc(g);
  const Conv2dSchedule product = conv2d_default_schedule(product_desc);
  const int64_t vectors = product.oc_tile_blocks * host.vectors_spanning(product.oc_bn);
  const int64_t block_vectors = host.vectors_spanning(s.oc_bn);
  if (!product.packs_groups(product_desc) && vectors % block_vectors == 0) {
    s.oc_tile_blocks = vectors / block_vectors;
    s.tile_t = evenly_wide(product.oh_bn * product.ow_bn, product_desc.in_w);
    if (!g.banded() && product_weight_bytes(d, s.m) > host.l2_bytes) take_fewer_weight_passes(g, s);
    return;
  }
  // Pixels for two vectors even when the block is one, as the direct default's tile, evened
  // out over the band's tiles as above (AVX2, resnet-50's 128 -> 128 on 28x28: bands of 25
  // tiles in 5 of 5 ran 751 us against 769 in 4 of 6 and one of 1; docs/design/winograd.md).
  const int64_t budget = host.tile_accumulators() / std::max<int64_t>(block_vectors, 2);
  s.tile_t = evenly_wide(std::min(budget, widest_register_tile(d)), product_desc.in_w);
}

}  // namespace

std::string WinogradSchedule::str() const {
  return "m" + std::to_string(m) + "_ic" + std::to_string(ic_bn) + "_oc" + std::to_string(oc_bn) + "_t" +
         std::to_string(tile_t) + (oc_inner ? "_ocin" : "") + (prefetch_weights ? "_pf" : "") +
         (band_rows > 0 ? "_band" + std::to_string(band_rows) : "") +
         (oc_tile_blocks > 1 ? "_ocb" + std::to_string(oc_tile_blocks) : "") + layout_suffix(kStoreKnob, store_bn);
}

bool winograd_applicable(const Conv2dDesc& d) {
  // The input transform mixes the channels' pixels before any weight is applied, so there is
  // no weight vector to carry an input scale.
  return d.kernel_h == 3 && d.kernel_w == 3 && d.stride_h == 1 && d.stride_w == 1 && d.groups == 1 && !d.input_scale && !d.prologue;
}

WinogradTileGrid winograd_tile_grid(const Conv2dDesc& desc, int64_t m) {
  const conv::WinogradGeometry g = geometry_of(desc, {m, 1, 1, 1, false});
  return {g.tiles_h(), g.tiles_w()};
}

bool winograd_by_default(const Conv2dDesc& d) {
  return winograd_applicable(d) && whole_vector_block(default_channel_block(d.in_channels)) &&
         whole_vector_block(default_channel_block(d.out_channels)) && (enough_tiles(d, 2) || saves_weight_reads(d));
}

WinogradSchedule winograd_default_schedule(const Conv2dDesc& d) {
  WinogradSchedule s;
  s.m = default_tile_size(d);
  s.ic_bn = default_channel_block(d.in_channels);
  s.oc_bn = default_channel_block(d.out_channels);
  s.band_rows = default_band_rows(d, s.m);
  set_product_tile(d, s);
  // As the direct default: the weights come from memory on every inference, so the middle
  // stage fetches the next blocks' while it multiplies by these.
  s.prefetch_weights = d.out_channels > s.oc_bn * s.oc_tile_blocks;
  return s;
}

ConfigSpace winograd_conv2d_space(const Conv2dDesc& desc) {
  desc.validate();
  if (!winograd_applicable(desc))
    throw KernelError("winograd conv2d " + std::string(kApplicability) + ", not " + desc.str());
  ConfigSpace space;
  namespace k = knobs::winograd_conv2d;
  space.add(k::tile_m, conv::winograd_tile_sizes());
  space.add(k::tile_ic, divisors(desc.in_channels));
  space.add(k::tile_oc, divisors(desc.out_channels));
  space.add(k::tile_t, inclusive_range(1, widest_register_tile(desc)));
  space.add(k::oc_inner, {0, 1});
  space.add(k::prefetch_weights, {0, 1}, 0);
  // Knobs added after records were written, each with the value a record lacking it means
  // (records name their knobs; indices are recomputed from them: record-compatibility.md).
  space.add(k::tile_band, kBandRows, 0);
  space.add(k::tile_oc_blocks, inclusive_range(1, kMaxTileBlocks), 1);
  add_layout_knob(space, kStoreKnob, desc.out_channels);
  return space;
}

WinogradSchedule winograd_conv2d_schedule_at(const ConfigSpace& space, int64_t index) {
  const auto point = space.point(index);
  namespace k = knobs::winograd_conv2d;
  return {point.at(k::tile_m.name),        point.at(k::tile_ic.name),
          point.at(k::tile_oc.name),       point.at(k::tile_t.name),
          point.at(k::oc_inner.name) != 0, point.at(k::prefetch_weights.name) != 0,
          point.at(k::tile_band.name),     point.at(kStoreKnob.name),
          point.at(k::tile_oc_blocks.name)};
}

void validate_winograd_conv2d(const Conv2dDesc& desc, const WinogradSchedule& s) {
  desc.validate();
  require(winograd_applicable(desc), desc, s, kApplicability);
  const std::vector<int64_t>& sizes = conv::winograd_tile_sizes();
  require(std::find(sizes.begin(), sizes.end(), s.m) != sizes.end(), desc, s, "output tile m must be 2, 4 or 6");
  require(s.ic_bn > 0 && desc.in_channels % s.ic_bn == 0, desc, s,
          "ic_bn must divide in_channels = " + std::to_string(desc.in_channels));
  require(s.oc_bn > 0 && desc.out_channels % s.oc_bn == 0, desc, s,
          "oc_bn must divide out_channels = " + std::to_string(desc.out_channels));
  require(s.band_rows >= 0, desc, s, "band_rows must not be negative");
  require(s.oc_tile_blocks > 0, desc, s, "oc_tile_blocks must be positive");
  require(valid_layout_block(s.store_bn, desc.out_channels), desc, s,
          "store_bn must be 0 or divide out_channels = " + std::to_string(desc.out_channels));
  // At most the tiles the kernel computes, or the space's widest tile where that is more.
  const int64_t widest = std::max(geometry_of(desc, s).tiles(), widest_register_tile(desc));
  require(s.tile_t > 0 && s.tile_t <= widest, desc, s, "tile_t must lie in [1, " + std::to_string(widest) + "]");
}

Conv2dLayouts winograd_conv2d_layouts(const Conv2dDesc& desc, const WinogradSchedule& s) {
  validate_winograd_conv2d(desc, s);
  return {layout::Layout::nchwc(s.ic_bn), layout::Layout::oihwio(s.ic_bn, s.oc_bn),
          layout::Layout::nchwc(s.stored_block())};
}

int64_t winograd_weight_floats(const Conv2dDesc& desc, const WinogradSchedule& s) {
  validate_winograd_conv2d(desc, s);
  return geometry_of(desc, s).positions() * desc.out_channels * desc.in_channels;
}

std::vector<float> pack_winograd_weights(const Conv2dDesc& desc, const WinogradSchedule& s, std::span<const float> oihw) {
  validate_winograd_conv2d(desc, s);
  const conv::WinogradMatrices& t = conv::winograd_matrices(s.m);
  // [alpha^2][K][C] is the OIHW tensor [alpha^2 * K][C][1][1] of the grouped middle stage.
  const std::vector<float> transformed = conv::winograd_filter_transform(t, oihw, desc.out_channels, desc.in_channels);
  const layout::Layout oihw_layout = layout::Layout::oihw();
  const layout::LayoutTransform relayout({t.alpha * t.alpha * desc.out_channels, desc.in_channels, 1, 1}, oihw_layout,
                                         oihw_layout, winograd_conv2d_layouts(desc, s).weight);
  return relayout.apply(transformed);
}

Kernel compile_winograd_conv2d(const Conv2dDesc& desc, const WinogradSchedule& s) {
  validate_winograd_conv2d(desc, s);
  const conv::WinogradGeometry g = geometry_of(desc, s);
  const std::string key = desc.str() + "|" + s.str();
  const auto to_tiles = jit::cached_kernel("winograd_input|" + key, [&] { return conv::compile_winograd_input_transform(g); });
  const auto from_tiles = jit::cached_kernel("winograd_output|" + key, [&] { return conv::compile_winograd_output_transform(g); });
  const auto product = compile_conv2d_stage(batched_product_desc(g), batched_product_schedule(g, s),
                                            {g.position_pad(g.in_channels), g.position_pad(g.out_channels)});
  using enum StageOperand;
  // Banded, the middle stage multiplies one band's V (all its items) for every unit.
  std::vector<KernelStage> stages{{to_tiles, {input, none, none, none, scratch0, none}},
                                  {product, {scratch0, weight, none, none, scratch1, none},
                                   g.banded()},
                                  {from_tiles, {scratch1, none, bias, residual, output, none}}};
  static std::atomic<int64_t> serial{0};  // as the JIT's symbols: layoutopt_<kind>_<n>
  return Kernel("layoutopt_winograd_conv2d_" + std::to_string(serial++), std::move(stages),
                {g.transformed_input_floats(), g.transformed_output_floats()}, g.banded() ? g.units() : 0);
}

double winograd_product_flops(const Conv2dDesc& desc, const WinogradSchedule& s) {
  validate_winograd_conv2d(desc, s);
  const conv::WinogradGeometry g = geometry_of(desc, s);
  return 2.0 * static_cast<double>(g.batch * g.tiles() * g.positions() * g.in_channels * g.out_channels);
}

}  // namespace layoutopt::kernels
