#pragma once
// conv2d in NCHW[x]c, direct algorithm, schedule space after AutoTVM's x86 conv2d_NCHWc
// template. Handles any stride / padding / dilation and grouped convolution (channel blocks
// then divide the per-group channel counts, or pack several narrow groups to a block, see
// Conv2dSchedule::oc_bn). Depthwise convolution has its own, faster operator in
// depthwise_conv2d.h.

#include <string>

#include "layoutopt/kernels/config_space.h"
#include "layoutopt/kernels/conv2d_desc.h"
#include "layoutopt/kernels/kernel.h"
#include "layoutopt/layout/layout.h"

namespace layoutopt::kernels {

struct Conv2dSchedule {
  int64_t ic_bn = 1;        ///< input-channel block the kernel reduces over
  /// Output-channel block the kernel computes in: a divisor of a group's output channels, or,
  /// where a group's input and output channels are the same count c, a multiple of c that
  /// packs several groups to a block (packs_groups). A packed block reads the same channels
  /// of the input (by default stored in blocks of oc_bn) and reduces over all c of a group
  /// in one step, so a 4-channel group computes in full vectors (PackedGroupsReduction); its
  /// weights keep the OIHW[ic_bn]i[oc_bn]o layout.
  int64_t oc_bn = 1;
  int64_t ow_bn = 1;        ///< register tile along output width (TVM's reg_n)
  bool unroll_kw = true;    ///< unroll the kernel-width loop in the interior tiles
  int64_t oh_bn = 1;        ///< register tile along output height (conv2d_max_tile_rows)
  /// Work-item order: false = (batch, oc block, row tile), so a thread's consecutive items
  /// reuse one oc block's weights; true = (batch, row tile, oc block), so they reuse the same
  /// input rows (better when the weights fit in cache and the input rows do not).
  bool oc_inner = false;
  /// Fetch the next oc block's weights toward L1 while computing this one (software
  /// prefetches spread over the FMAs). Pays off when weights come from memory (large
  /// layers); costs issue slots when they are cached, hence a knob.
  bool prefetch_weights = false;
  /// Channel block of the stored output, NCHW[store_bn]c (0: oc_bn). A layout change fused
  /// into the kernel: each output vector is stored in pieces at its channels' places in the
  /// other blocking, which can beat computing in that block or transforming afterwards.
  int64_t store_bn = 0;
  /// Channel block the input is read in, NCHW[load_bn]c (0: read_block's default). The layout
  /// change on the input side: each reduction step finds its ic_bn channels in one stored
  /// block (load_bn a multiple of ic_bn) or in runs of gcd(ic_bn, load_bn) channels across
  /// stored blocks (a block of packed groups likewise reads its oc_bn channels in runs).
  int64_t load_bn = 0;
  /// Input channels reduced per pass (0: all in one). With a chunk, a thread reduces the
  /// first chunk for all its work items, then the next, keeping partial sums in the output,
  /// so an output block's chunk of weights stays in L1 across the thread's row tiles instead
  /// of streaming from L2 for every register tile. Rounded up to whole ic_bn blocks; with
  /// prefetch_weights each pass fetches its chunk of the next tile's weights.
  int64_t reduce_chunk = 0;
  /// Tiles the output as one row of out_h x out_w pixels, each register tile oh_bn x ow_bn
  /// consecutive pixels, which may run across row ends: a 1x1 stride-1 unpadded conv reads
  /// pixel p for output pixel p whatever the image's width, so this is the GEMM over pixels
  /// and leaves no partly filled tiles at row ends (7x7 maps: 9 tiles of 6 pixels, not 12 of
  /// 2 x 3). Only for such convs (conv2d_flattens).
  bool flat_pixels = false;
  /// Output blocks one register tile computes (oneDNN's nb_oc_blocking): each input value
  /// broadcast feeds that many blocks' FMAs, so one-vector blocks can compute three or four
  /// vectors per broadcast (more than a two-vector block), whatever the channels (440 = 55 x
  /// 8 included). The tiles of a group's blocks need not come out even: the last is
  /// narrower; more blocks than a group has compute all of them in one tile. Weights and
  /// activations keep oc_bn's layouts.
  int64_t oc_tile_blocks = 1;
  /// Fetch the input rows of the next reduction step into L1 while this one computes. Pays
  /// off where each FMA needs much input (stride-2 convs read 4x a stride-1 conv's input per
  /// output); where the hardware prefetchers keep up it costs issue slots, hence a knob
  /// (docs/design/input-prefetch.md).
  bool prefetch_input = false;

  [[nodiscard]] int64_t stored_block() const { return store_bn == 0 ? oc_bn : store_bn; }
  /// True when each output block spans several of `desc`'s groups (see oc_bn).
  [[nodiscard]] bool packs_groups(const Conv2dDesc& desc) const { return oc_bn > desc.out_channels_per_group(); }
  /// The input's channel block: load_bn, else the block the kernel reduces over (oc_bn when
  /// it packs groups, ic_bn otherwise).
  [[nodiscard]] int64_t read_block(const Conv2dDesc& desc) const {
    return load_bn != 0 ? load_bn : packs_groups(desc) ? oc_bn : ic_bn;
  }
  [[nodiscard]] std::string str() const;
  bool operator==(const Conv2dSchedule&) const = default;
};

/// Layouts a schedule implies. Bias is always a plain vector of out_channels; a residual
/// has the output's layout.
struct Conv2dLayouts {
  layout::Layout input;   ///< NCHW[read_block(desc)]c
  layout::Layout weight;  ///< OIHW[ic_bn]i[oc_bn]o
  layout::Layout output;  ///< NCHW[stored_block()]c
};

/// Knobs tile_ic, tile_oc (a group's divisors, then blocks of whole groups up to a vector
/// where groups pack), tile_ow, unroll_kw (0/1), tile_oh, oc_inner (0/1),
/// prefetch_weights (0/1), reduce_chunk, flat_pixels (0/1 where conv2d_flattens, else 0),
/// tile_oc_blocks, prefetch_input (0/1), and
/// the derived store_oc and load_ic (0, then every divisor of out_channels or in_channels),
/// which search leaves at 0 (see tuning/fused_layout_variants.h).
[[nodiscard]] ConfigSpace conv2d_space(const Conv2dDesc& desc);
/// Whether output pixel p reads input pixel p alone (a 1x1 kernel, stride 1, no padding), so
/// the image can be tiled as one row (Conv2dSchedule::flat_pixels).
[[nodiscard]] bool conv2d_flattens(const Conv2dDesc& desc);
/// Whether `desc` strides a kernel wider than a pixel: such convs read more input per FMA than
/// the hardware prefetchers bring in time, so they fetch input rows ahead by default and
/// search Conv2dSchedule::prefetch_input; elsewhere it stays off (docs/design/input-prefetch.md).
[[nodiscard]] bool conv2d_strides_wide_kernel(const Conv2dDesc& desc);
/// Most output blocks one register tile computes (Conv2dSchedule::oc_tile_blocks, and the
/// batched product of a Winograd kernel): 4 x 6 fills AVX-512's 32 registers (oneDNN's
/// brgemm tile), 3 x 4 AVX2's 16; more blocks leave too few pixels beside them.
inline constexpr int64_t kMaxTileBlocks = 4;
/// Output width up to which one row holds too few pixels to fill a tile's accumulators.
inline constexpr int64_t kNarrowOutputWidth = 14;
/// Tallest register tile conv2d_space offers: up to 4 output rows for 1x1 convs (TVM's
/// tile_oh) and for convs whose output is at most kNarrowOutputWidth wide (evidence:
/// docs/design/default-schedules.md); else 1, since a taller tile of a KxK kernel also
/// computes on the padding rows it straddles.
[[nodiscard]] int64_t conv2d_max_tile_rows(const Conv2dDesc& desc);
/// Reads a point of conv2d_space back into a schedule.
[[nodiscard]] Conv2dSchedule conv2d_schedule_at(const ConfigSpace& space, int64_t index);
/// The untuned schedule, by rule from the shape: one-vector blocks as many to a register tile
/// as fill the registers with the pixels beside them (3 x 4 on AVX2, 4 x 6 with AVX-512: the
/// most FMAs per load) where a vector divides the output channels and that leaves no more FMA
/// slots empty than two vectors per tile, else two vectors per tile; the register tile with
/// fewest tiles, the kernel's columns looped over where a group's one vector of channels is
/// one stretch per tap, weights prefetched, input and output kept in default_channel_block
/// (rules and evidence: docs/design/default-schedules.md).
[[nodiscard]] Conv2dSchedule conv2d_default_schedule(const Conv2dDesc& desc);
/// Throws KernelError naming the problem (e.g. oc_bn not dividing out_channels per group).
void validate_conv2d(const Conv2dDesc& desc, const Conv2dSchedule& schedule);
[[nodiscard]] Conv2dLayouts conv2d_layouts(const Conv2dDesc& desc, const Conv2dSchedule& schedule);

/// Compiles (or fetches from the process-wide cache) the kernel for desc + schedule.
[[nodiscard]] Kernel compile_conv2d(const Conv2dDesc& desc, const Conv2dSchedule& schedule);

}  // namespace layoutopt::kernels
