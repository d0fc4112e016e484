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
// stage is exactly a 1x1 convolution with alpha^2 groups over a 1 x T image.
//
// Banded (band_rows > 0): the image's tile rows are cut into bands of band_rows, and V and M
// hold one band of one image ([1][alpha^2 * C / ic_bn][1][band_rows * tiles_w][ic_bn]), so
// a thread runs all three stages on a band while its V and M stay in its own cache. The
// stages' work items are then ordered (n, band, channel block, row within the band), so a
// unit (n, band) is a contiguous range of them. Unbanded, the same formulas hold with one
// band of all tile rows and V / M spanning the batch.

#include <cstdint>

#include "conv/winograd_axis.h"
#include "layoutopt/kernels/epilogue.h"

namespace layoutopt::kernels::conv {

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
  /// Tile rows per band, and bands per image (the last may reach past the image's tile rows).
  [[nodiscard]] int64_t rows_per_band() const { return banded() ? band_rows : tiles_h(); }
  [[nodiscard]] int64_t bands() const { return (tiles_h() + rows_per_band() - 1) / rows_per_band(); }
  /// Units of a banded kernel: (image, band) pairs.
  [[nodiscard]] int64_t units() const { return batch * bands(); }
  /// Tiles of V and M per image plane: a band's when banded.
  [[nodiscard]] int64_t band_tiles() const { return rows_per_band() * tiles_w(); }
  /// Images V and M hold: one when banded (one band of one image), else the batch.
  [[nodiscard]] int64_t buffered_images() const { return banded() ? 1 : batch; }
  /// Floats of V and of M.
  [[nodiscard]] int64_t transformed_input_floats() const { return buffered_images() * positions() * in_channels * band_tiles(); }
  [[nodiscard]] int64_t transformed_output_floats() const { return buffered_images() * positions() * out_channels * band_tiles(); }
};

}  // namespace layoutopt::kernels::conv
