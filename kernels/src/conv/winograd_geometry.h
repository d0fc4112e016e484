#pragma once
// WinogradGeometry: the compile-time constants of one Winograd F(m x m, 3 x 3) convolution in
// blocked layouts, and where its two intermediates live. With T = tiles_h * tiles_w output
// tiles per image (rows() and columns() cut each axis, a dilated one by phase: see
// winograd_axis.h) and alpha = m + 2:
//   input   [N][C / ic_bn][H][W][ic_bn]                      (NCHW[ic_bn]c)
//   V       [N][alpha^2 * C / ic_bn][1][T][ic_bn]            B^T d B of every tile
//   M       [N][alpha^2 * K / oc_bn][1][T][oc_bn]            V times the transformed filters
//   output  [N][K / store_bn][OH][OW][store_bn]              (NCHW[store_bn]c)
// V and M are NCHW[x]c tensors whose channel is (tile position xi) * C + c, so the middle
// stage is exactly a 1x1 convolution with alpha^2 groups over a 1 x T image, except that a
// position's planes may be followed by a cache line of padding (position_pitch).
//
// Banded (band_rows > 0): the image's tiles, in row-major order, are cut into bands of about
// band_rows tile rows, and V and M hold one band of one image ([1][alpha^2 * C / ic_bn][1]
// [band_tiles][ic_bn]), so a thread runs all three stages on a band while its V and M stay in
// its own cache. The bands share the tiles evenly, so they may start and end inside a tile
// row: 7 tile rows in bands of 4 are 25 and 24 tiles, not 28 and 21, which left one thread
// idle a seventh of the time. The stages' work items are ordered (n, band, channel block, row
// the band touches), so a unit (n, band) is a contiguous range of them. Unbanded, the same
// formulas hold with one band of all tiles and V / M spanning the batch.

#include <algorithm>
#include <cstdint>

#include "ceil_div.h"
#include "conv/cache_line.h"
#include "conv/winograd_axis.h"
#include "layoutopt/kernels/epilogue.h"

namespace layoutopt::kernels::conv {

/// Pitches of a multiple of this many cache lines crowd a tile's positions into few L1 sets.
inline constexpr int64_t kSetCrowdingLines = 16;

struct WinogradGeometry {
  int64_t batch = 1;
  int64_t in_channels = 1, out_channels = 1;
  int64_t in_h = 1, in_w = 1, out_h = 1, out_w = 1;
  int64_t pad_top = 0, pad_left = 0;
  int64_t dilation_h = 1, dilation_w = 1;
  int64_t m = 2, alpha = 4;
  int64_t ic_bn = 1, oc_bn = 1;
  int64_t band_rows = 0;  ///< tile rows per band; 0: unbanded (one band of all rows, V / M span the batch)
  int64_t store_bn = 1;   ///< the output is stored as NCHW[store_bn]c (see stored_output.h)
  Epilogue epilogue;  ///< applied by the output transform

  [[nodiscard]] WinogradAxis rows() const { return {out_h, dilation_h, m}; }
  [[nodiscard]] WinogradAxis columns() const { return {out_w, dilation_w, m}; }
  [[nodiscard]] int64_t tiles_h() const { return rows().tiles(); }
  [[nodiscard]] int64_t tiles_w() const { return columns().tiles(); }
  [[nodiscard]] int64_t tiles() const { return tiles_h() * tiles_w(); }
  [[nodiscard]] int64_t positions() const { return alpha * alpha; }
  [[nodiscard]] int64_t in_blocks() const { return in_channels / ic_bn; }
  [[nodiscard]] int64_t out_blocks() const { return out_channels / oc_bn; }
  [[nodiscard]] bool banded() const { return band_rows > 0; }
  /// Bands per image: one when unbanded.
  [[nodiscard]] int64_t bands() const { return banded() ? ceil_div(tiles_h(), band_rows) : 1; }
  /// Tiles per band (of V and M per image plane): the image's tiles shared evenly by its bands
  /// (the last band may hold fewer, or reach past the image's last tile row).
  [[nodiscard]] int64_t band_tiles() const { return ceil_div(tiles(), bands()); }
  /// True when every band starts on a tile row: then each covers whole rows, all columns.
  [[nodiscard]] bool bands_whole_rows() const { return band_tiles() % tiles_w() == 0; }
  /// Tile rows a band touches, at most: a band's work items per channel block.
  [[nodiscard]] int64_t rows_per_band() const {
    if (bands_whole_rows()) return band_tiles() / tiles_w();
    int64_t rows = 0;
    for (int64_t first = 0; first < tiles(); first += band_tiles()) {
      const int64_t last = std::min(first + band_tiles(), tiles()) - 1;
      rows = std::max(rows, last / tiles_w() - first / tiles_w() + 1);
    }
    return rows;
  }
  /// Units of a banded kernel: (image, band) pairs.
  [[nodiscard]] int64_t units() const { return batch * bands(); }
  /// Images V and M hold: one when banded (one band of one image), else the batch.
  [[nodiscard]] int64_t buffered_images() const { return banded() ? 1 : batch; }
  /// Floats from one tile position's planes of V (channels = C) or M (K) to the next: the
  /// position's channels x tiles in whole cache lines, one line more in whole stages where
  /// that count is a multiple of 16. Why: the transforms store (load) a tile's alpha^2
  /// values one pitch apart, and a pitch of 16k lines puts them in at most 4 of L1's 64 sets
  /// (every x86 L1D has 64): 256 channels x 16 tiles (resnet-50's 14 x 14 maps) put all 36
  /// in one set of 12 ways, and the input transform ran 3.3x slower, the output transform
  /// 1.4x. Bands, whose V and M stay in their thread's cache, and pitches that spread a tile
  /// over 8 sets or more ran 3-6% slower padded (AVX-512, Zen 5; docs/design/winograd.md).
  [[nodiscard]] int64_t position_pitch(int64_t channels) const {
    const int64_t lines = ceil_div(channels * band_tiles(), kFloatsPerCacheLine);
    const bool crowded = !banded() && lines % kSetCrowdingLines == 0;
    return (crowded ? lines + 1 : lines) * kFloatsPerCacheLine;
  }
  /// Floats of padding after each position's planes.
  [[nodiscard]] int64_t position_pad(int64_t channels) const { return position_pitch(channels) - channels * band_tiles(); }
  /// Floats of V and of M.
  [[nodiscard]] int64_t transformed_input_floats() const { return buffered_images() * positions() * position_pitch(in_channels); }
  [[nodiscard]] int64_t transformed_output_floats() const { return buffered_images() * positions() * position_pitch(out_channels); }
};

}  // namespace layoutopt::kernels::conv
