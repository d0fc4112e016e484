#pragma once
// conv2d by Winograd's minimal filtering F(m x m, 3 x 3): for 3x3, stride-1, ungrouped
// convolutions in NCHW[x]c, dilated or not. It runs as three stages (see Kernel): the input
// transform B^T d B of every tile, one 1x1 convolution with alpha^2 groups that multiplies
// those by the transformed filters (the same JIT microkernel as conv2d, so it inherits its
// register tiling), and the output transform A^T m A with the fused epilogue.
//
// Per channel pair and output tile it multiplies alpha^2 times instead of 9 m^2 (2.25x fewer
// for m = 2, 4x for m = 4, 5.1x for m = 6), at the price of transformed filters alpha^2 / 9
// times the size of the originals (1.8x, 4x, 7.1x) and of the transforms' memory traffic,
// so it wins on large images with modest channel counts and can lose where the weights
// dominate: the tuner measures both algorithms and the planner picks per layer.
//
// The transforms' traffic is the schedule's to choose (band_rows). Run whole, each stage
// over the image, the intermediates are alpha^2 / m^2 times the input and output (2.25x for
// m = 4) and go through memory, so on large images that traffic, not the arithmetic, sets
// the time. Banded, a thread takes a few tile rows through all three stages and its
// intermediates stay in its L2; the price is that every band reads all the weights, and
// that few bands balance the threads poorly, so whole passes remain the choice where the
// weights are large and the image small. Evidence: docs/design/banded-winograd.md.
//
// A dilated convolution (dilation d) is, for each output phase (y mod d_h, x mod d_w), an
// undilated one over the input pixels of the same phase, so its tiles each hold m x m outputs
// of one phase, d apart, and the transforms read and write with that stride; the weights and
// the middle stage are those of the undilated convolution.
//
// The weight "layout" is the middle stage's: the transformed filters as a logical
// [alpha^2 * out_channels, in_channels, 1, 1] OIHW tensor, blocked OIHW[ic_bn]i[oc_bn]o;
// pack_winograd_weights makes it from OIHW weights.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "layoutopt/kernels/config_space.h"
#include "layoutopt/kernels/conv2d.h"
#include "layoutopt/kernels/conv2d_desc.h"
#include "layoutopt/kernels/kernel.h"

namespace layoutopt::kernels {

struct WinogradSchedule {
  int64_t m = 4;          ///< output tile edge: F(m x m, 3 x 3), m in {2, 4, 6}
  int64_t ic_bn = 1;      ///< input is NCHW[ic_bn]c
  int64_t oc_bn = 1;      ///< output block the stages compute in
  int64_t tile_t = 1;     ///< register tile of the middle stage along the output tiles (clamped to a band's)
  bool oc_inner = false;  ///< the middle stage's work-item order (see Conv2dSchedule)
  bool prefetch_weights = false;  ///< the middle stage streams its next weights (see Conv2dSchedule)
  /// Tile rows a thread takes through all three stages at a time; 0, or not fewer than the
  /// image's tile rows: whole stages.
  int64_t band_rows = 0;
  /// Channel block of the stored output, NCHW[store_bn]c (0: oc_bn): the output transform
  /// stores in pieces as a direct conv does (Conv2dSchedule::store_bn).
  int64_t store_bn = 0;
  /// Output blocks one register tile of the middle stage computes, tile_t tiles each
  /// (Conv2dSchedule::oc_tile_blocks): each broadcast of V feeds that many blocks' FMAs.
  int64_t oc_tile_blocks = 1;

  [[nodiscard]] int64_t stored_block() const { return store_bn == 0 ? oc_bn : store_bn; }
  [[nodiscard]] std::string str() const;
  bool operator==(const WinogradSchedule&) const = default;
};

/// True for 3x3 kernels with stride 1, groups 1 (any dilation, any padding) and no input scale.
[[nodiscard]] bool winograd_applicable(const Conv2dDesc& desc);

/// The output tiles of one image for F(m x m, 3 x 3): ceil(out_h / m) x ceil(out_w / m) when
/// undilated; dilated, tiles of one phase each, about as many (each phase rounds up on its own).
struct WinogradTileGrid {
  int64_t rows = 0, columns = 0;
  [[nodiscard]] int64_t tiles() const { return rows * columns; }
};
[[nodiscard]] WinogradTileGrid winograd_tile_grid(const Conv2dDesc& desc, int64_t m);

/// Whether the untuned default computes `desc` by Winograd rather than directly: where it
/// applies, with input and output channels in default blocks of 8 or 16, on images
/// of at least kWinogradDefaultMinTiles tiles of 2 x 2 (over the batch). Why: the batched
/// product reads every transformed weight once per run, so on small images (7x7) the weights,
/// 1.8x or 4x the direct ones, cost more than the multiplications saved
/// (docs/design/default-schedules.md). Also on images of at least
/// kWinogradSmallMapMinTiles tiles of 2 whose weights exceed L2, where the product would read
/// at most two thirds of the bytes of weights the direct default's register tiles read: there
/// the direct kernel reads its weights from beyond L2 once per register tile (resnet-50's
/// 7x7 and inception-v3's 8x8 convs of 384-512 channels).
[[nodiscard]] bool winograd_by_default(const Conv2dDesc& desc);
inline constexpr int64_t kWinogradDefaultMinTiles = 32;
inline constexpr int64_t kWinogradSmallMapMinTiles = 16;

/// The untuned Winograd schedule (what the default runs where winograd_by_default, and the
/// first trial of every Winograd tuning task): tiles of 6 where that leaves at least
/// kWinogradDefaultMinTiles of them and they cover no more outputs than tiles of 4 (on
/// inception-v3's 35 x 35 maps 0.81-0.87x the time of tiles of 4; on maps they cover with
/// more outputs 1.1-1.6x), else tiles of 4 where that leaves enough, or at least
/// kWinogradSmallMapMinTiles with fewer tile positions than tiles of 2 whose weights exceed L2
/// (14x14 maps of 256-512 channels), else 2; the default
/// channel blocks; bands of one tile row on images of at least kWinogradDefaultMinBandedRows
/// tile rows, whose whole-stage intermediates would go through memory, and on smaller images
/// one band per thread where each gets kWinogradMinBandTiles tiles or more, so that V and M
/// stay in their core (docs/design/banded-winograd.md); the batched product's register tile
/// by the direct default's rule for that 1x1 conv (2-4 one-vector blocks per tile with
/// AVX-512: one block per tile loads a broadcast per FMA), narrowed to cover a band evenly,
/// or two vectors as wide as the accumulators allow where a whole image's product rereads
/// weights beyond L2 in fewer passes so (16 tiles in 2 passes of 8, not 3 of 6);
/// the next output blocks' weights prefetched where there are more, as the direct default's.
[[nodiscard]] WinogradSchedule winograd_default_schedule(const Conv2dDesc& desc);
inline constexpr int64_t kWinogradDefaultMinBandedRows = 8;
inline constexpr int64_t kWinogradMinBandTiles = 16;

/// Knobs tile_m, tile_ic, tile_oc, tile_t, oc_inner (0/1), prefetch_weights (0/1), tile_band
/// (band_rows: 0, 1, 2, 4; 0 when a record lacks it), tile_oc_blocks (1 .. kMaxTileBlocks; 1
/// when a record lacks it), and the derived store_oc (0, then every divisor of out_channels;
/// see tuning/layout_variants.h). Throws KernelError when the desc is not winograd_applicable.
[[nodiscard]] ConfigSpace winograd_conv2d_space(const Conv2dDesc& desc);
[[nodiscard]] WinogradSchedule winograd_conv2d_schedule_at(const ConfigSpace& space, int64_t index);
/// Throws KernelError naming the problem.
void validate_winograd_conv2d(const Conv2dDesc& desc, const WinogradSchedule& schedule);
/// Input NCHW[ic_bn]c, output NCHW[stored_block()]c, weight OIHW[ic_bn]i[oc_bn]o of the transformed
/// filters (see above).
[[nodiscard]] Conv2dLayouts winograd_conv2d_layouts(const Conv2dDesc& desc, const WinogradSchedule& schedule);
/// Floats of the packed weights: alpha^2 * out_channels * in_channels.
[[nodiscard]] int64_t winograd_weight_floats(const Conv2dDesc& desc, const WinogradSchedule& schedule);
/// Transforms and re-lays OIHW weights ([out_channels][in_channels][3][3]) for the kernel.
[[nodiscard]] std::vector<float> pack_winograd_weights(const Conv2dDesc& desc, const WinogradSchedule& schedule,
                                                       std::span<const float> oihw);

/// Compiles (or fetches from the kernel cache) the three stages; the returned Kernel owns
/// its intermediate buffers.
[[nodiscard]] Kernel compile_winograd_conv2d(const Conv2dDesc& desc, const WinogradSchedule& schedule);

/// FLOPs of the kernel's batched product, 2 per multiply-add: alpha^2 x in x out channels
/// per tile of every image. The input and output transforms are adds and are not counted.
[[nodiscard]] double winograd_product_flops(const Conv2dDesc& desc, const WinogradSchedule& schedule);

}  // namespace layoutopt::kernels
