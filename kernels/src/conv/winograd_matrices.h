#pragma once
// The matrices of Winograd's minimal filtering algorithm F(m x m, 3 x 3) (Lavin & Gray,
// "Fast Algorithms for Convolutional Neural Networks", 2016): an m x m output tile of a 3x3
// correlation is A^T [(G g G^T) . (B^T d B)] A for the alpha x alpha input tile d
// (alpha = m + 2), which takes alpha^2 multiplications per channel pair instead of 9 m^2.
// m = 2 uses the points 0, 1, -1, infinity; m = 4 adds 2 and -2 (the scaling of Lavin's
// paper, which keeps fp32 error near that of direct convolution); m = 6 adds 1/2 and -1/2,
// multiplying 5.1x less than direct convolution at a larger error (bounded per tile size in
// tests/kernels/winograd_accuracy_test.cpp).

#include <cstdint>
#include <span>
#include <vector>

namespace layoutopt::kernels::conv {

struct WinogradMatrices {
  int64_t m = 0;      ///< output tile edge
  int64_t alpha = 0;  ///< input tile edge, m + 2
  std::vector<std::vector<double>> BT;  ///< alpha x alpha: input transform
  std::vector<std::vector<double>> G;   ///< alpha x 3: filter transform
  std::vector<std::vector<double>> AT;  ///< m x alpha: output transform
};

/// The output tile sizes with matrices here.
[[nodiscard]] const std::vector<int64_t>& winograd_tile_sizes();
/// Throws KernelError for an m not in winograd_tile_sizes().
[[nodiscard]] const WinogradMatrices& winograd_matrices(int64_t m);

/// G g G^T for every filter of `oihw` ([out_channels][in_channels][3][3]): the result is
/// [alpha * alpha][out_channels][in_channels], position (k, l) of the tile at k * alpha + l.
[[nodiscard]] std::vector<float> winograd_filter_transform(const WinogradMatrices& matrices,
                                                           std::span<const float> oihw, int64_t out_channels,
                                                           int64_t in_channels);

}  // namespace layoutopt::kernels::conv
