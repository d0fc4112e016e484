#pragma once
// DirectConvGeometry: the compile-time constants of one direct-convolution kernel in blocked
// layouts (input read as [N][load_blocks][IH][IW][load_bn] and reduced in blocks of in_bn
// channels, computed in output blocks of out_bn channels, stored as
// [N][C / store_bn][OH][OW][store_bn]),
// and the planning that follows from them: which output columns need padding checks.

#include <cstdint>
#include <vector>

#include "conv/cache_line.h"
#include "layoutopt/kernels/conv2d_desc.h"

namespace layoutopt::kernels::conv {

struct DirectConvGeometry {
  int64_t batch = 1;
  int64_t in_h = 1, in_w = 1, out_h = 1, out_w = 1;
  int64_t kernel_h = 1, kernel_w = 1;
  int64_t stride_h = 1, stride_w = 1;
  int64_t pad_top = 0, pad_left = 0;
  int64_t dilation_h = 1, dilation_w = 1;
  int64_t in_blocks = 1, in_bn = 1;
  int64_t out_blocks = 1, out_bn = 1;
  int64_t store_bn = 1;                    ///< the stored output is [N][C / store_bn][OH][OW][store_bn]
  int64_t load_blocks = 1, load_bn = 1;    ///< the input is read as [N][load_blocks][IH][IW][load_bn]
  int64_t oh_bn = 1, ow_bn = 1;
  /// Output blocks per register tile, and the run of blocks tiles never straddle (a group's:
  /// its blocks read their own input channels); the run's last tile may hold fewer blocks.
  int64_t tile_blocks = 1, run_blocks = 1;
  bool unroll_kw = true;
  bool out_block_inner = false;  ///< work items (batch, row tile, out tile) instead of (batch, out tile, row tile)
  bool prefetch_weights = false; ///< stream the next out block's weights toward L1 (see the emitter)
  bool prefetch_input = false;   ///< fetch the next reduction step's input rows into L1 (see the emitter)
  /// Reduction steps (input blocks) per pass over the work items; 0: all in one pass.
  int64_t steps_per_pass = 0;
  Epilogue epilogue;
  bool input_scale = false;      ///< conv(input * scale): see Conv2dDesc::input_scale
  /// conv(activation(input * scale + shift)): see Conv2dDesc::prologue. Its scales lie
  /// prologue_offset floats into the bias operand, its shifts in_blocks * in_bn after them.
  std::optional<Activation> prologue;
  int64_t prologue_offset = 0;
  int64_t groups = 1;
  /// Floats of padding after each group's planes in the input and in the output (groups of
  /// whole stored blocks); 0: planes back to back. Only the Winograd product pads: its
  /// groups are V's and M's tile positions (WinogradGeometry::position_pitch).
  int64_t in_group_pad = 0, out_group_pad = 0;

  [[nodiscard]] int64_t row_tiles() const { return (out_h + oh_bn - 1) / oh_bn; }
  [[nodiscard]] int64_t tiles_per_run() const { return (run_blocks + tile_blocks - 1) / tile_blocks; }
  /// Output tiles: register tiles' worth of output blocks, tile_blocks each but the last of a run.
  [[nodiscard]] int64_t out_tiles() const { return out_blocks / run_blocks * tiles_per_run(); }
  [[nodiscard]] int64_t last_tile_blocks() const { return run_blocks - (tiles_per_run() - 1) * tile_blocks; }
  /// Work items: (batch, output tile, output-row tile) flattened, last fastest, or with the
  /// last two swapped when out_block_inner.
  [[nodiscard]] int64_t work_items() const { return batch * out_tiles() * row_tiles(); }
  /// Input column read by output column `ow` at kernel column `kw` (may lie in the padding).
  [[nodiscard]] int64_t input_column(int64_t ow, int64_t kw) const {
    return ow * stride_w - pad_left + kw * dilation_w;
  }
  /// Floats between the same pixel of consecutive stored input blocks.
  [[nodiscard]] int64_t load_plane() const { return in_h * in_w * load_bn; }
  /// Floats past an input row pointer that the taps may read: one stored row when the input
  /// is read in a multiple of in_bn, else the row in every stored block (the pointer is at
  /// stored block 0, see the emitter's stored_position).
  [[nodiscard]] int64_t input_row_span() const {
    return (load_bn % in_bn == 0 ? 0 : (load_blocks - 1) * load_plane()) + in_w * load_bn;
  }
  /// True when every (output row, kernel row) pair reads a real input row: no padding rows.
  [[nodiscard]] bool rows_always_valid() const;
  /// True when output columns [ow, ow + width) read no padding column for any kw.
  [[nodiscard]] bool columns_interior(int64_t ow, int64_t width) const;
};

/// Register tiling of one kernel: channel blocks of input and output, tile sizes.
struct TileShape {
  int64_t in_bn = 1, out_bn = 1;
  int64_t oh_bn = 1, ow_bn = 1;
  bool unroll_kw = true;
  bool out_block_inner = false;
  bool prefetch_weights = false;
  int64_t store_bn = 0;  ///< 0: out_bn
  int64_t load_bn = 0;   ///< 0: in_bn
  int64_t steps_per_pass = 0;  ///< 0: one pass
  int64_t tile_blocks = 1;     ///< output blocks per register tile
  int64_t run_blocks = 0;      ///< blocks tiles never straddle (a group's); 0: all
  bool prefetch_input = false;
};

/// The geometry of `desc` under a tiling (the desc must be valid and the blocks divide it).
[[nodiscard]] DirectConvGeometry make_geometry(const Conv2dDesc& desc, const TileShape& tiles);

/// A run of register tiles along the output width. Interior runs become a loop without
/// padding checks; border tiles (count 1) are emitted with a constant position so that taps
/// falling into the padding are dropped at compile time.
struct ColumnSegment {
  int64_t first_column = 0;
  int64_t tiles = 1;
  int64_t width = 1;  ///< columns per tile (ow_bn, or the remainder for the last tile)
  bool interior = false;
};

/// Splits [0, out_w) into border tiles, one interior run and the remainder tile, in order.
[[nodiscard]] std::vector<ColumnSegment> plan_columns(const DirectConvGeometry& geometry);

/// How a kernel with prefetch_weights fetches the next output tile's weights (tile_blocks
/// consecutive blocks) while it computes the current one. One tile's fetch is shared by
/// `sharers` work items (its row tiles when output tiles are outermost: each fetches a slice;
/// else 1: every item is a new tile and fetches all of the next), each over its column tiles
/// and taps, each tap over the reduction's prefetch slots (spread among its FMAs). The k-th
/// slot of that sequence fetches lines [k * lines_per_slot, (k + 1) * lines_per_slot), those
/// below `lines`.
///
/// In one pass the tile's weights are contiguous. With reduction passes (steps_per_pass),
/// each pass fetches the next tile's chunk for that pass, what the tile reads next: one run
/// of chunk_floats per output block, a block's weights apart (OIHW[ic]i[oc]o keeps a block's
/// input blocks together). Why: a large layer's current and next tiles of whole blocks do
/// not fit in L2 together, their chunks do (docs/design/weight-prefetch.md).
struct WeightStream {
  int64_t lines = 0;           ///< cache lines of one output tile's fetch (all its runs)
  int64_t sharers = 1;         ///< work items that share one tile's fetch
  int64_t column_tiles = 1;    ///< register tiles along the output width
  int64_t slots = 0;           ///< prefetch slots per tile, over all sharers, tiles and taps
  int64_t lines_per_slot = 0;  ///< fewest lines per slot that cover the block
  int64_t chunk_floats = 0;    ///< a pass's weights of one block (all of them in one pass)
  int64_t run_lines = 0;       ///< lines of one block's run; 0: the tile's lines are contiguous (one pass, or one block)
  int64_t run_stride = 0;      ///< floats from one block's run to the next

  /// The first line slot `slot` (of `slots`) fetches: slots of one line each spread evenly
  /// over the lines where there are more slots than lines, so that the whole tile's work
  /// fetches the next tile (the emitter computes the same). Why: packed into the first slots,
  /// the next tile arrived while the first sharers ran and evicted the weights the later
  /// ones still read (docs/design/weight-prefetch.md).
  [[nodiscard]] int64_t first_line_of_slot(int64_t slot) const {
    return slots > lines ? slot * lines / slots : slot * lines_per_slot;
  }
  /// Floats from the fetch's first weight to line `line` (the emitter computes the same).
  [[nodiscard]] int64_t line_offset(int64_t line) const {
    if (run_lines == 0) return line * kFloatsPerCacheLine;
    return line / run_lines * run_stride + line % run_lines * kFloatsPerCacheLine;
  }
};

/// How the reduction over one block of input channels is emitted: straight-line stretches of
/// `unroll` channels (the ic loop steps by them), and a weight-prefetch slot every
/// `prefetch_stride` channels inside them.
struct ReductionStretches {
  int64_t unroll = 1;
  int64_t prefetch_stride = 1;
};

/// Whether a weight-prefetch slot every `prefetch_stride` input channels of a register tile
/// of `tile_accumulators` has FMAs enough to hide its address arithmetic among (the kernel
/// then fetches no weights ahead at all).
[[nodiscard]] bool prefetch_slot_pays(int64_t prefetch_stride, int64_t tile_accumulators);

/// For `consecutive_channels` channels stored one after another (the reduction block, or
/// its runs inside stored blocks of another size), a register tile of `tile_accumulators`
/// and a kernel_h x kernel_w kernel. A stride is the longest divisor of the consecutive
/// channels within 128 FMAs; a kernel of one row reads all of them in one stretch when their
/// FMAs over its columns stay within 512 (see the definition for why).
[[nodiscard]] ReductionStretches plan_reduction_stretches(int64_t consecutive_channels, int64_t tile_accumulators,
                                                          int64_t kernel_h, int64_t kernel_w);

/// `weights_per_block` floats per output block over `outer_steps` reduction steps, the
/// geometry's steps per pass x kernel_h x kernel_w taps per column tile, `slots_per_tap`
/// slots per tap. No stream (no slots) where passes split the steps unevenly or a pass's
/// chunk of a block is not whole cache lines.
[[nodiscard]] WeightStream plan_weight_stream(const DirectConvGeometry& geometry, int64_t outer_steps,
                                              int64_t weights_per_block, int64_t slots_per_tap);

}  // namespace layoutopt::kernels::conv
