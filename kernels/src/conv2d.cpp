#include "layoutopt/kernels/conv2d.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <optional>

#include "ceil_div.h"
#include "conv2d_stage.h"
#include "conv/accumulator_tile.h"
#include "conv/blocked_reduction.h"
#include "conv/direct_conv_emitter.h"
#include "conv/packed_groups_reduction.h"
#include "jit/kernel_cache.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/host.h"
#include "layoutopt/kernels/layout_knobs.h"
#include "layoutopt/kernels/tunable_op.h"

namespace layoutopt::kernels {

namespace {

void require(bool ok, const Conv2dDesc& desc, const Conv2dSchedule& schedule, const std::string& what) {
  if (!ok) throw KernelError("invalid conv2d schedule " + schedule.str() + " for " + desc.str() + ": " + what);
}

// Largest divisor of n not above limit (1 if none).
int64_t largest_divisor_up_to(int64_t n, int64_t limit) {
  int64_t best = 1;
  for (int64_t d : divisors(n))
    if (d <= limit) best = d;
  return best;
}

// Weights up to which consecutive work items share input rows (oc_inner): a core's L2 on
// the Zen 4 and 5 hosts it was measured on (1 MB). Not the host's own L2: on a Zen 3 (512
// KB) that moved no network measurably (docs/design/default-schedules.md).
constexpr int64_t kSharedRowsWeightBytes = int64_t{1} << 20;

int64_t weight_bytes(const Conv2dDesc& d) {
  return d.weight_floats() * static_cast<int64_t>(sizeof(float));
}

int64_t input_bytes(const Conv2dDesc& d) {
  return d.batch * d.in_channels * d.in_h * d.in_w * static_cast<int64_t>(sizeof(float));
}

// Output blocks inner (oc_inner) re-read all the weights for each row tile, outer re-read
// the whole input for each output tile: share the input rows where the weights stay cached
// and the input is the larger of the two. On 7x7 and 8x8 maps (input 0.2-0.3 MB against
// 0.5-1 MB of weights) output blocks inner ran 1.1-1.5x slower (docs/design/default-schedules.md).
bool shares_input_rows(const Conv2dDesc& d) {
  return weight_bytes(d) <= kSharedRowsWeightBytes && input_bytes(d) > weight_bytes(d);
}

// Input channels per reduction step and per pass of a 3x3 conv that streams its weights
// over a map one register tile row covers (below), and the weights from which it does.
constexpr int64_t kStreamingStepChannels = 128;
constexpr int64_t kStreamingPassChannels = 256;
constexpr int64_t kStreamingWeightBytes = int64_t{16} << 20;

// A 3x3 conv with 16 MB of weights or more on a map one tile row covers (hrnet's 512 -> 1024
// and wide_resnet50_2's 1024 -> 1024 onto 7x7): it streams every weight from memory on every
// inference and reuses each for a few pixels only. Input steps of 128 channels (read from
// the default block) in passes of 256, with input rows fetched ahead, ran those convs in
// 0.95x and 0.88x the time inside their networks; resnet-50's 9.4 MB one ran as before
// (docs/design/default-schedules.md).
bool streams_weights_over_one_tile_row(const Conv2dDesc& d, const Conv2dSchedule& s) {
  return d.kernel_h == 3 && d.kernel_w == 3 && d.groups == 1 && !d.input_scale && !d.prologue && s.oh_bn == 1 &&
         s.ow_bn == d.out_w() && s.oc_tile_blocks > 1 && weight_bytes(d) >= kStreamingWeightBytes &&
         d.in_channels % kStreamingPassChannels == 0;
}

// The layout knob's value that keeps a tensor in `block` when the kernel computes in
// `computed` (0: as computed).
int64_t stored_as(int64_t block, int64_t computed) { return block == computed ? 0 : block; }

// Over fewer input channels than a vector holds (a 3-channel stem) a block wider than a
// vector only with 8-lane vectors: with 16 lanes shufflenet's 3 -> 24 stem ran 1.14x slower in
// one block of 24 (a vector and a half-masked one) than in blocks of 12 (Zen 5;
// docs/design/default-schedules.md).
constexpr int64_t kStemWideBlockLanes = 8;

bool narrow_stem_blocks(const Conv2dDesc& d, int64_t lanes) {
  return d.in_channels_per_group() < lanes && lanes > kStemWideBlockLanes;
}

// A default's output blocks and how many of them one register tile computes.
struct OutputTiling {
  int64_t block = 1, tile_blocks = 1;

  /// Weight vectors (and accumulators per pixel) of one register tile.
  [[nodiscard]] int64_t tile_vectors() const { return tile_blocks * host_info().vectors_spanning(block); }
};

// Two vectors per tile: a two-vector block where it divides the channels, else two one-vector
// blocks per tile (each broadcast feeds two FMAs either way); else one block, alone: the
// activation block (masked: 58 of 64 lanes for 58 channels; at most a vector over a stem's
// few input channels), else the largest part of a vector that divides the channels (a group
// of 4 channels in 4 lanes), since its FMAs fill part of the lanes however many blocks share
// a broadcast.
OutputTiling two_vector_tiling(const Conv2dDesc& d, int64_t lanes) {
  const int64_t channels = d.out_channels_per_group();
  if (channels % (2 * lanes) == 0) return {2 * lanes, 1};
  if (channels % lanes == 0) return {lanes, std::min<int64_t>(2, channels / lanes)};
  const int64_t block = default_channel_block(channels);
  const bool fits = block > 1 && (block <= lanes || !narrow_stem_blocks(d, lanes));
  return {fits ? block : largest_divisor_up_to(channels, lanes), 1};
}

// Pixels a tile of `vectors` weight vectors has room for beside them and one broadcast.
int64_t pixels_beside(int64_t vectors, int registers) {
  return std::max<int64_t>(1, (registers - vectors - 1) / vectors);
}

// Weight vectors of the register tile with the most FMAs per load: a tile of V weight
// vectors by P pixels loads V + P values (the weights, a broadcast per pixel) for V * P FMAs,
// and holds V * P accumulators, the V weights and one broadcast in the vector registers.
// 3 x 4 fits AVX2's 16 registers (7 loads per 12 FMAs, where 2 x 6 loads 8), 4 x 6 AVX-512's
// 32 (oneDNN's brgemm tile); kMaxTileBlocks caps V.
int64_t register_filling_vectors(int registers) {
  int64_t best = 1;
  for (int64_t v = 2; v <= kMaxTileBlocks; ++v) {
    const int64_t p = pixels_beside(v, registers), best_p = pixels_beside(best, registers);
    if (v * p * (best + best_p) > best * best_p * (v + p)) best = v;
  }
  return best;
}

// One-vector blocks, at most `most_per_tile` to a register tile, the count evened out over a
// group's blocks (4 vectors as two tiles of 2, not 3 + 1); nullopt where a vector does not
// divide the channels, or where the count is two (two_vector_tiling's).
std::optional<OutputTiling> one_vector_tiling(const Conv2dDesc& d, int64_t lanes, int64_t most_per_tile) {
  const int64_t channels = d.out_channels_per_group();
  if (channels % lanes != 0) return std::nullopt;
  const int64_t vectors = channels / lanes;
  const int64_t tiles = ceil_div(vectors, std::min(vectors, most_per_tile));
  const int64_t per_tile = ceil_div(vectors, tiles);
  if (per_tile <= 2) return std::nullopt;
  return OutputTiling{lanes, per_tile};
}

// The register-filling count of one-vector blocks per tile (register_filling_vectors).
std::optional<OutputTiling> register_filling_tiling(const Conv2dDesc& d, int64_t lanes) {
  return one_vector_tiling(d, lanes, register_filling_vectors(host_info().vector_registers));
}

// Input channels reduced per step: the block the input is stored in, so every step reads one
// stored block. Wider steps read across stored blocks; they made resnet-50's default 8%
// faster but inception-v3's 11% and resnext-50's 10% slower, one inception conv 2.5x
// (docs/design/default-schedules.md), so they are the tuner's to choose.
int64_t default_reduction_block(const Conv2dDesc& d) {
  return largest_divisor_up_to(d.in_channels_per_group(), default_channel_block(d.in_channels));
}

// Input channels per reduction pass worth offering: from 32 (a chunk of weights of a few
// KB) to 256 (16 KB for a two-vector block on AVX2, half an L1), below the channels a group
// reduces (a chunk of all of them is one pass, the 0 already offered).
std::vector<int64_t> reduce_chunk_values(const Conv2dDesc& d) {
  std::vector<int64_t> values{0};
  for (int64_t chunk = 32; chunk <= 256 && chunk < d.in_channels_per_group(); chunk *= 2) values.push_back(chunk);
  return values;
}

// Tiles of several blocks: all counts where one-vector blocks are the widest whole-vector
// blocks that divide the channels per group; where wider blocks divide them, one block per
// tile, the register-filling tile of one-vector blocks (register_filling_tiling) and the
// default's: every count everywhere would only multiply the space a quick tuning run has a
// minute to search (shufflenet's quick plan ran 14% slower with them offered everywhere).
std::vector<int64_t> tile_blocks_values(const Conv2dDesc& d) {
  const int64_t lanes = host_info().vector_lanes;
  const int64_t channels = d.out_channels_per_group();
  if (channels % lanes != 0) return {1};
  if (channels % (2 * lanes) != 0) return inclusive_range(1, std::min(kMaxTileBlocks, channels / lanes));
  std::vector<int64_t> values{1};
  if (const std::optional<OutputTiling> filling = register_filling_tiling(d, lanes))
    values.push_back(filling->tile_blocks);
  const Conv2dSchedule fallback = conv2d_default_schedule(d);
  if (fallback.oc_bn == lanes) values.push_back(fallback.oc_tile_blocks);
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

// Blocks of several whole groups, up to a vector, where a group's input and output channels
// are the same count and fill less than a vector (Conv2dSchedule::oc_bn).
std::vector<int64_t> packed_group_blocks(const Conv2dDesc& d, int64_t lanes) {
  const int64_t channels = d.out_channels_per_group();
  if (d.groups == 1 || d.in_channels_per_group() != channels || channels >= lanes) return {};
  std::vector<int64_t> blocks;
  for (int64_t groups : divisors(d.groups))
    if (groups > 1 && groups * channels <= lanes) blocks.push_back(groups * channels);
  return blocks;
}

std::vector<int64_t> output_block_values(const Conv2dDesc& d) {
  std::vector<int64_t> values = divisors(d.out_channels_per_group());
  for (int64_t block : packed_group_blocks(d, host_info().vector_lanes)) values.push_back(block);
  return values;
}

struct RegisterTile {
  int64_t rows = 1, columns = 1;
};

// The output tile of at most `pixels` accumulating pixels per vector of the output block
// that leaves the fewest tiles (most FMAs per weight vector loaded), as wide as the budget
// allows, in as many rows as the space offers.
RegisterTile default_register_tile(const Conv2dDesc& d, int64_t pixels) {
  const int64_t max_rows = conv2d_max_tile_rows(d);
  RegisterTile best;
  int64_t fewest = std::numeric_limits<int64_t>::max();
  for (int64_t rows = 1; rows <= max_rows && pixels / rows > 0; ++rows) {
    const int64_t columns = std::min({d.out_w(), conv::kMaxTileWidth, pixels / rows});
    const int64_t tiles = ceil_div(d.out_h(), rows) * ceil_div(d.out_w(), columns);
    if (tiles < fewest) {
      fewest = tiles;
      best = {rows, columns};
    }
  }
  return best;
}

// Flat tiling by default where it leaves at most four fifths of the register tiles rows
// would, i.e. on narrow maps whose row ends leave partly empty tiles that still load every
// weight vector (2048 -> 512 on 7x7: 9 tiles of 6 instead of 12 of 2 x 3, 12% faster;
// docs/design/default-schedules.md), and only where its items share out evenly: a flat
// image is one work item per output block over the batch, and threads take contiguous
// ranges of items, so 5 items on 2 threads idle one a sixth of the time. At least
// kFlatMinItems items leave any team little idle time, and a multiple of kFlatEvenItems
// none on teams of 1, 2, 4 or 8 (densenet-201's 1056 -> 128 on 7x7, 8 items: 19% faster).
constexpr int64_t kFlatMinItems = 16;
constexpr int64_t kFlatEvenItems = 8;

// Register tiles an image takes: in rows, or as one row of all its pixels (flat).
int64_t pixel_tiles(const Conv2dDesc& d, const RegisterTile& tile, bool flat) {
  return flat ? ceil_div(d.out_h() * d.out_w(), tile.rows * tile.columns)
              : ceil_div(d.out_h(), tile.rows) * ceil_div(d.out_w(), tile.columns);
}

bool flat_by_default(const Conv2dDesc& d, int64_t out_block, int64_t tile_blocks, const RegisterTile& tile) {
  const int64_t items = d.batch * d.groups * ceil_div(d.out_channels_per_group() / out_block, tile_blocks);
  if (!conv2d_flattens(d) || (items < kFlatMinItems && items % kFlatEvenItems != 0)) return false;
  return 5 * pixel_tiles(d, tile, true) <= 4 * pixel_tiles(d, tile, false);
}

// Groups of at most a quarter vector compute packed by default, and of half a vector where
// a half vector's FMA runs at half the rate, in the widest block of whole groups that the
// input's default block holds: ResNeXt-50's 4-channel groups ran 2.6x faster than in 4-lane
// blocks (Zen 4), its 8-channel groups 1.3x faster than in 8-lane vectors on Zen 5 and no
// faster on Zen 4, which runs 8-lane FMAs at the full rate (docs/design/default-schedules.md).
std::optional<int64_t> default_packed_block(const Conv2dDesc& d, int64_t lanes) {
  const int64_t groups_per_vector = host_info().half_vectors_full_rate ? 4 : 2;
  if (groups_per_vector * d.out_channels_per_group() > lanes) return std::nullopt;
  std::optional<int64_t> widest;
  for (int64_t block : packed_group_blocks(d, lanes))
    if (default_channel_block(d.in_channels) % block == 0) widest = block;
  return widest;
}

// One output row of packed groups, as wide as the registers a kernel row's taps leave
// (conv::packed_row_registers), in the fewest tiles that budget allows.
int64_t packed_tile_columns(const Conv2dDesc& d) {
  const HostInfo& host = host_info();
  const int64_t kept =
      conv::packed_row_registers(d.in_channels_per_group(), d.kernel_w, host.vector_lanes, host.vector_registers);
  const int64_t budget = std::clamp<int64_t>(host.vector_registers - kept, 1, conv::kMaxTileWidth);
  return ceil_div(d.out_w(), ceil_div(d.out_w(), budget));
}

// A default's output tiling with the register tile and image tiling that go with it.
struct TiledOutput {
  OutputTiling output;
  RegisterTile tile;
  bool flat = false;
};

TiledOutput tile_output(const Conv2dDesc& d, const OutputTiling& output) {
  // Pixels for two vectors even when the tile is one: a one-vector tile loads a broadcast
  // per FMA whatever its width, and 28 pixels ran slower than 14 (regnet-x's stem, 1.4x).
  // Groups narrower than a vector take all the pixels one vector leaves room for: ResNeXt's
  // 8-channel groups with AVX-512 ran 1.4-1.5x faster on 28 pixels than on 14 (Zen 4).
  const int64_t vectors = output.tile_vectors();
  const bool narrow_groups = d.groups > 1 && output.block < host_info().vector_lanes;
  const RegisterTile tile = default_register_tile(
      d, pixels_beside(narrow_groups ? vectors : std::max<int64_t>(vectors, 2), host_info().vector_registers));
  return {output, tile, flat_by_default(d, output.block, output.tile_blocks, tile)};
}

// Share of the tiles' FMA slots that compute outputs: a run's last tile of blocks and the
// tiles at row ends (or the image's end, flat) may be partly empty and cost as much.
double filled_share(const Conv2dDesc& d, const TiledOutput& t) {
  const int64_t blocks = d.out_channels_per_group() / t.output.block;
  const int64_t block_slots = ceil_div(blocks, t.output.tile_blocks) * t.output.tile_blocks;
  const int64_t pixel_slots = pixel_tiles(d, t.tile, t.flat) * t.tile.rows * t.tile.columns;
  return static_cast<double>(blocks * d.out_h() * d.out_w()) / static_cast<double>(block_slots * pixel_slots);
}

// Issue slots per output FMA: each reduction step of a tile of V vectors by P pixels issues
// V * P FMAs and V + P loads (the weight vectors, a broadcast per pixel), and the partly
// empty tiles (filled_share) cost as much as full ones.
double slots_per_output_fma(const Conv2dDesc& d, const TiledOutput& t) {
  const auto vectors = static_cast<double>(t.output.tile_vectors());
  const auto pixels = static_cast<double>(t.tile.rows * t.tile.columns);
  return (1.0 + (vectors + pixels) / (vectors * pixels)) / filled_share(d, t);
}

// Of the tiles of one-vector blocks from the register-filling count down to 3 and two
// vectors per tile, the one that issues the fewest slots per output FMA; ties go to the
// wider tile. On AVX2 (3 x 4 against 2 x 6) that keeps two vectors where 4-pixel tiles leave
// a 1-pixel tile on 17-wide rows (inception's 7x1 convs, 20% slower) and where 64 channels
// split 3 + 3 + 2 (no faster); on AVX-512 (4 x 6, 3 x 9 or 3 x 7, 2 x 14) it takes 4 x 6 on
// 56-, 28- and 14-wide rows, and 3 x 7 on 7x7 maps, where 4 x 6 leaves 49 pixels in 54
// slots (docs/design/default-schedules.md).
TiledOutput default_tiled_output(const Conv2dDesc& d, int64_t lanes) {
  std::vector<TiledOutput> candidates;
  for (int64_t v = register_filling_vectors(host_info().vector_registers); v >= 3; --v)
    if (const std::optional<OutputTiling> tiling = one_vector_tiling(d, lanes, v))
      candidates.push_back(tile_output(d, *tiling));
  candidates.push_back(tile_output(d, two_vector_tiling(d, lanes)));
  return *std::min_element(candidates.begin(), candidates.end(), [&](const TiledOutput& a, const TiledOutput& b) {
    return slots_per_output_fma(d, a) < slots_per_output_fma(d, b);
  });
}

// The image a flat schedule computes: one row of all the pixels (conv2d_flattens).
Conv2dDesc flat_view(Conv2dDesc d) {
  d.in_w *= d.in_h;
  d.in_h = 1;
  return d;
}

// The space offers each count to every block size; a tile of more blocks than a group has is
// one of all of them.
// A block of packed groups is its own tile: the next block reads other input channels.
int64_t tile_blocks(const Conv2dDesc& d, const Conv2dSchedule& s) {
  return s.packs_groups(d) ? 1 : std::min(s.oc_tile_blocks, d.out_channels_per_group() / s.oc_bn);
}

conv::BlockedShape blocked_shape_of(const Conv2dDesc& d, const Conv2dSchedule& s) {
  return {d.groups,
          s.ic_bn,
          s.oc_bn,
          d.in_channels_per_group() / s.ic_bn,
          d.out_channels_per_group() / s.oc_bn,
          d.kernel_h,
          d.kernel_w,
          s.oh_bn * s.ow_bn * tile_blocks(d, s) * host_info().vectors_spanning(s.oc_bn),
          // A prologue stages each block's channels one after another (direct_conv_emitter.cpp).
          s.read_block(d) % s.ic_bn == 0 || d.prologue ? 0 : s.read_block(d),
          d.in_h * d.in_w * s.read_block(d)};
}

conv::PackedGroupsShape packed_shape_of(const Conv2dDesc& d, const Conv2dSchedule& s) {
  const int64_t read = s.read_block(d);
  return {d.in_channels_per_group(), s.oc_bn,       s.ic_bn, d.kernel_h, d.kernel_w, read % s.oc_bn == 0 ? 0 : read,
          d.in_h * d.in_w * read};
}

// Grouped convs whose groups are one vector of channels loop over the kernel's columns where
// a tap reduces the group's channels in one straight stretch: with the columns unrolled,
// LLVM keeps the input columns that neighbouring taps share live across the tap and spills
// them. Elsewhere the loop ran no faster, or slower (docs/design/default-schedules.md).
bool columns_looped_by_default(const Conv2dDesc& d, const Conv2dSchedule& s, int64_t lanes) {
  const bool one_vector_groups =
      d.groups > 1 && d.out_channels_per_group() == lanes && d.in_channels_per_group() == lanes;
  return one_vector_groups && d.kernel_w > 1 && conv::BlockedReduction(blocked_shape_of(d, s)).taps_in_one_stretch();
}

// A block of packed groups (Conv2dSchedule::oc_bn): whole groups whose input and output
// channels are the same count, and a group never split across vector chunks (the shuffles
// stay inside a chunk). Any ic_bn and load_bn valid for the conv serve.
void validate_packed_groups(const Conv2dDesc& desc, const Conv2dSchedule& s) {
  const int64_t channels = desc.out_channels_per_group();
  const std::string group = std::to_string(channels);
  require(desc.in_channels_per_group() == channels, desc, s,
          "oc_bn packs groups only where a group has as many input as output channels");
  require(s.oc_bn % channels == 0 && desc.out_channels % s.oc_bn == 0, desc, s,
          "a block of packed groups must hold whole groups of " + group + " channels and divide out_channels");
  const int64_t lanes = host_info().vector_lanes;
  require(s.oc_bn <= lanes || lanes % channels == 0, desc, s,
          "a group of " + group + " channels would straddle two of the host's vectors");
}

}  // namespace

std::string Conv2dSchedule::str() const {
  return "ic" + std::to_string(ic_bn) + "_oc" + std::to_string(oc_bn) + "_ow" + std::to_string(ow_bn) + "_kw" +
         (unroll_kw ? "1" : "0") + "_oh" + std::to_string(oh_bn) + (oc_inner ? "_ocin" : "") +
         (prefetch_weights ? "_pf" : "") + (reduce_chunk > 0 ? "_rc" + std::to_string(reduce_chunk) : "") +
         (flat_pixels ? "_flat" : "") + (oc_tile_blocks > 1 ? "_ocb" + std::to_string(oc_tile_blocks) : "") +
         (prefetch_input ? "_pfi" : "") +
         layout_suffix(kStoreKnob, store_bn) + layout_suffix(kLoadKnob, load_bn);
}

bool conv2d_flattens(const Conv2dDesc& desc) {
  return desc.kernel_h == 1 && desc.kernel_w == 1 && desc.stride_h == 1 && desc.stride_w == 1 && desc.pad_top == 0 &&
         desc.pad_left == 0 && desc.pad_bottom == 0 && desc.pad_right == 0;
}

bool conv2d_strides_wide_kernel(const Conv2dDesc& desc) {
  return (desc.stride_h > 1 || desc.stride_w > 1) && desc.kernel_h * desc.kernel_w > 1;
}

int64_t conv2d_max_tile_rows(const Conv2dDesc& desc) {
  const bool one_by_one = desc.kernel_h == 1 && desc.kernel_w == 1;
  return one_by_one || desc.out_w() <= kNarrowOutputWidth ? std::min<int64_t>(desc.out_h(), 4) : 1;
}

ConfigSpace conv2d_space(const Conv2dDesc& desc) {
  desc.validate();
  ConfigSpace space;
  namespace k = knobs::conv2d;
  space.add(k::tile_ic, divisors(desc.in_channels_per_group()));
  space.add(k::tile_oc, output_block_values(desc));
  space.add(k::tile_ow, inclusive_range(1, std::min(desc.out_w(), conv::kMaxTileWidth)));
  space.add(k::unroll_kw, {0, 1});
  space.add(k::tile_oh, inclusive_range(1, conv2d_max_tile_rows(desc)));
  space.add(k::oc_inner, {0, 1});
  space.add(k::prefetch_weights, {0, 1}, 0);
  space.add(k::reduce_chunk, reduce_chunk_values(desc), 0);
  space.add(k::flat_pixels, conv2d_flattens(desc) ? std::vector<int64_t>{0, 1} : std::vector<int64_t>{0}, 0);
  space.add(k::tile_oc_blocks, tile_blocks_values(desc), 1);
  space.add(k::prefetch_input,
            conv2d_strides_wide_kernel(desc) ? std::vector<int64_t>{0, 1} : std::vector<int64_t>{0}, 0);
  add_layout_knob(space, kStoreKnob, desc.out_channels);
  add_layout_knob(space, kLoadKnob, desc.in_channels);
  return space;
}

Conv2dSchedule conv2d_schedule_at(const ConfigSpace& space, int64_t index) {
  const auto point = space.point(index);
  namespace k = knobs::conv2d;
  return {point.at(k::tile_ic.name),         point.at(k::tile_oc.name),
          point.at(k::tile_ow.name),         point.at(k::unroll_kw.name) != 0,
          point.at(k::tile_oh.name),         point.at(k::oc_inner.name) != 0,
          point.at(k::prefetch_weights.name) != 0, point.at(kStoreKnob.name),
          point.at(kLoadKnob.name),          point.at(k::reduce_chunk.name),
          point.at(k::flat_pixels.name) != 0, point.at(k::tile_oc_blocks.name),
          point.at(k::prefetch_input.name) != 0};
}

Conv2dSchedule conv2d_default_schedule(const Conv2dDesc& desc) {
  desc.validate();
  const int64_t lanes = host_info().vector_lanes;
  Conv2dSchedule s;
  if (const std::optional<int64_t> packed = default_packed_block(desc, lanes)) {
    s.oc_bn = *packed;
    s.ic_bn = desc.in_channels_per_group();
    s.ow_bn = packed_tile_columns(desc);
  } else {
    const TiledOutput tiled = default_tiled_output(desc, lanes);
    s.oc_bn = tiled.output.block;
    s.oc_tile_blocks = tiled.output.tile_blocks;
    s.ic_bn = default_reduction_block(desc);
    s.oh_bn = tiled.tile.rows;
    s.ow_bn = tiled.tile.columns;
    s.flat_pixels = tiled.flat;
  }
  s.oc_inner = shares_input_rows(desc);
  // Weights come from memory on every inference; fetch the next block's while this one runs.
  s.prefetch_weights = desc.out_channels_per_group() > s.oc_bn * s.oc_tile_blocks;
  // Packed groups gained nothing clear from it when timed (docs/design/input-prefetch.md).
  s.prefetch_input = conv2d_strides_wide_kernel(desc) && !s.packs_groups(desc);
  // One reduction pass: passes matched or lost to it inside networks
  // (docs/design/reduction-passes.md), except where a small map streams large weights.
  s.reduce_chunk = 0;
  if (streams_weights_over_one_tile_row(desc, s)) {
    s.ic_bn = kStreamingStepChannels;
    s.reduce_chunk = kStreamingPassChannels;
    s.prefetch_input = true;
  }
  // Activations stay in the default block, so a default network needs no transform.
  s.store_bn = stored_as(default_channel_block(desc.out_channels), s.oc_bn);
  s.load_bn = stored_as(default_channel_block(desc.in_channels), s.read_block(desc));
  s.unroll_kw = !columns_looped_by_default(desc, s, lanes);
  return s;
}

void validate_conv2d(const Conv2dDesc& desc, const Conv2dSchedule& s) {
  desc.validate();
  require(s.ic_bn > 0 && desc.in_channels_per_group() % s.ic_bn == 0, desc, s,
          "ic_bn must divide in_channels / groups = " + std::to_string(desc.in_channels_per_group()));
  if (s.packs_groups(desc)) {
    validate_packed_groups(desc, s);
  } else {
    require(s.oc_bn > 0 && desc.out_channels_per_group() % s.oc_bn == 0, desc, s,
            "oc_bn must divide out_channels / groups = " + std::to_string(desc.out_channels_per_group()) +
                " or pack whole groups");
  }
  require(s.ow_bn > 0 && s.ow_bn <= desc.out_w(), desc, s,
          "ow_bn must lie in [1, out_w = " + std::to_string(desc.out_w()) + "]");
  require(s.oh_bn > 0 && s.oh_bn <= desc.out_h(), desc, s,
          "oh_bn must lie in [1, out_h = " + std::to_string(desc.out_h()) + "]");
  require(valid_layout_block(s.store_bn, desc.out_channels), desc, s,
          "store_bn must be 0 or divide out_channels = " + std::to_string(desc.out_channels));
  require(valid_layout_block(s.load_bn, desc.in_channels), desc, s,
          "load_bn must be 0 or divide in_channels = " + std::to_string(desc.in_channels));
  require(s.reduce_chunk >= 0, desc, s, "reduce_chunk must not be negative");
  require(s.oc_tile_blocks > 0, desc, s, "oc_tile_blocks must be positive");
  require(!s.flat_pixels || conv2d_flattens(desc), desc, s,
          "flat_pixels needs a 1x1 kernel, stride 1 and no padding: output pixel p must read input pixel p");
}

Conv2dLayouts conv2d_layouts(const Conv2dDesc& desc, const Conv2dSchedule& schedule) {
  validate_conv2d(desc, schedule);
  return {layout::Layout::nchwc(schedule.read_block(desc)), layout::Layout::oihwio(schedule.ic_bn, schedule.oc_bn),
          layout::Layout::nchwc(schedule.stored_block())};
}

std::shared_ptr<const CompiledFunction> compile_conv2d_stage(const Conv2dDesc& desc, const Conv2dSchedule& schedule,
                                                             GroupPadding padding) {
  validate_conv2d(desc, schedule);
  const bool packed = schedule.packs_groups(desc);
  const bool padded = padding.input > 0 || padding.output > 0;
  assert(!padded || (desc.groups > 1 && !packed && schedule.read_block(desc) == schedule.ic_bn &&
                     schedule.stored_block() == schedule.oc_bn));
  const std::string key = "conv2d|" + desc.str() + "|" + schedule.str() +
                          (padded ? "|gp" + std::to_string(padding.input) + "," + std::to_string(padding.output) : "");
  return jit::cached_kernel(key, [&] {
    // A flat schedule computes the same memory as one row of pixels, its tile's pixels in a
    // row of their own.
    const Conv2dDesc image = schedule.flat_pixels ? flat_view(desc) : desc;
    const int64_t oh_bn = schedule.flat_pixels ? 1 : schedule.oh_bn;
    const int64_t ow_bn = schedule.flat_pixels ? schedule.oh_bn * schedule.ow_bn : schedule.ow_bn;
    conv::DirectConvGeometry geometry = conv::make_geometry(
        image, {packed ? schedule.oc_bn : schedule.ic_bn, schedule.oc_bn, oh_bn, ow_bn, schedule.unroll_kw,
                schedule.oc_inner, schedule.prefetch_weights, schedule.stored_block(), schedule.read_block(desc),
                (schedule.reduce_chunk + schedule.ic_bn - 1) / schedule.ic_bn, tile_blocks(desc, schedule),
                packed ? 0 : desc.out_channels_per_group() / schedule.oc_bn, schedule.prefetch_input});
    geometry.in_group_pad = padding.input;
    geometry.out_group_pad = padding.output;
    if (packed) return conv::compile_direct_conv(geometry, conv::PackedGroupsReduction(packed_shape_of(image, schedule)), "conv2d");
    return conv::compile_direct_conv(geometry, conv::BlockedReduction(blocked_shape_of(image, schedule)), "conv2d");
  });
}

Kernel compile_conv2d(const Conv2dDesc& desc, const Conv2dSchedule& schedule) {
  return Kernel(compile_conv2d_stage(desc, schedule));
}

}  // namespace layoutopt::kernels
