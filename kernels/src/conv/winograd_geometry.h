#pragma once
// WinogradGeometry: the compile-time constants of one Winograd F(m x m, 3 x 3) convolution in
// blocked layouts, and where its two intermediates live. With T = tiles_h * tiles_w output
// tiles per image and alpha = m + 2:
//   input   [N][C / ic_bn][H][W][ic_bn]                      (NCHW[ic_bn]c)
//   V       [N][alpha^2 * C / ic_bn][1][T][ic_bn]            B^T d B of every tile
//   M       [N][alpha^2 * K / oc_bn][1][T][oc_bn]            V times the transformed filters
//   output  [N][K / oc_bn][OH][OW][oc_bn]                    (NCHW[oc_bn]c)
// V and M are NCHW[x]c tensors whose channel is (tile position xi) * C + c, so the middle
// stage is exactly a 1x1 convolution with alpha^2 groups over a 1 x T image.

#include <cstdint>

#include "layoutopt/kernels/epilogue.h"

namespace layoutopt::kernels::conv {

struct WinogradGeometry {
  int64_t batch = 1;
  int64_t in_channels = 1, out_channels = 1;
  int64_t in_h = 1, in_w = 1, out_h = 1, out_w = 1;
  int64_t pad_top = 0, pad_left = 0;
  int64_t m = 2, alpha = 4;
  int64_t ic_bn = 1, oc_bn = 1;
  Epilogue epilogue;  ///< applied by the output transform

  [[nodiscard]] int64_t tiles_h() const { return (out_h + m - 1) / m; }
  [[nodiscard]] int64_t tiles_w() const { return (out_w + m - 1) / m; }
  [[nodiscard]] int64_t tiles() const { return tiles_h() * tiles_w(); }
  [[nodiscard]] int64_t positions() const { return alpha * alpha; }
  [[nodiscard]] int64_t in_blocks() const { return in_channels / ic_bn; }
  [[nodiscard]] int64_t out_blocks() const { return out_channels / oc_bn; }
  /// Floats of V and of M.
  [[nodiscard]] int64_t transformed_input_floats() const { return batch * positions() * in_channels * tiles(); }
  [[nodiscard]] int64_t transformed_output_floats() const { return batch * positions() * out_channels * tiles(); }
};

}  // namespace layoutopt::kernels::conv
