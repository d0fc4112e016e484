#include "conv/winograd_matrices.h"

#include "layoutopt/kernels/error.h"

namespace layoutopt::kernels::conv {

namespace {

WinogradMatrices f2x2_3x3() {
  return {2,
          4,
          {{1, 0, -1, 0}, {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, 0, -1}},
          {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}},
          {{1, 1, 1, 0}, {0, 1, -1, -1}}};
}

WinogradMatrices f4x4_3x3() {
  return {4,
          6,
          {{4, 0, -5, 0, 1, 0},
           {0, -4, -4, 1, 1, 0},
           {0, 4, -4, -1, 1, 0},
           {0, -2, -1, 2, 1, 0},
           {0, 2, -1, -2, 1, 0},
           {0, 4, 0, -5, 0, 1}},
          {{1.0 / 4, 0, 0},
           {-1.0 / 6, -1.0 / 6, -1.0 / 6},
           {-1.0 / 6, 1.0 / 6, -1.0 / 6},
           {1.0 / 24, 1.0 / 12, 1.0 / 6},
           {1.0 / 24, -1.0 / 12, 1.0 / 6},
           {0, 0, 1}},
          {{1, 1, 1, 1, 1, 0}, {0, 1, -1, 2, -2, 0}, {0, 1, 1, 4, 4, 0}, {0, 1, -1, 8, -8, 1}}};
}

// Points 0, 1, -1, 2, -2, 1/2, -1/2 and infinity, derived as m = 4's (the Cook-Toom
// construction with the 1 / prod(p_j - p_l) factors in G; the same construction gives m = 4's
// matrices above exactly).
WinogradMatrices f6x6_3x3() {
  return {6,
          8,
          {{-1, 0, 21.0 / 4, 0, -21.0 / 4, 0, 1, 0},
           {0, 1, 1, -17.0 / 4, -17.0 / 4, 1, 1, 0},
           {0, -1, 1, 17.0 / 4, -17.0 / 4, -1, 1, 0},
           {0, 1.0 / 2, 1.0 / 4, -5.0 / 2, -5.0 / 4, 2, 1, 0},
           {0, -1.0 / 2, 1.0 / 4, 5.0 / 2, -5.0 / 4, -2, 1, 0},
           {0, 2, 4, -5.0 / 2, -5, 1.0 / 2, 1, 0},
           {0, -2, 4, 5.0 / 2, -5, -1.0 / 2, 1, 0},
           {0, -1, 0, 21.0 / 4, 0, -21.0 / 4, 0, 1}},
          {{-1, 0, 0},
           {-2.0 / 9, -2.0 / 9, -2.0 / 9},
           {-2.0 / 9, 2.0 / 9, -2.0 / 9},
           {1.0 / 90, 1.0 / 45, 2.0 / 45},
           {1.0 / 90, -1.0 / 45, 2.0 / 45},
           {32.0 / 45, 16.0 / 45, 8.0 / 45},
           {32.0 / 45, -16.0 / 45, 8.0 / 45},
           {0, 0, 1}},
          {{1, 1, 1, 1, 1, 1, 1, 0},
           {0, 1, -1, 2, -2, 1.0 / 2, -1.0 / 2, 0},
           {0, 1, 1, 4, 4, 1.0 / 4, 1.0 / 4, 0},
           {0, 1, -1, 8, -8, 1.0 / 8, -1.0 / 8, 0},
           {0, 1, 1, 16, 16, 1.0 / 16, 1.0 / 16, 0},
           {0, 1, -1, 32, -32, 1.0 / 32, -1.0 / 32, 1}}};
}

}  // namespace

const std::vector<int64_t>& winograd_tile_sizes() {
  static const std::vector<int64_t> sizes{2, 4, 6};
  return sizes;
}

const WinogradMatrices& winograd_matrices(int64_t m) {
  static const WinogradMatrices f2 = f2x2_3x3();
  static const WinogradMatrices f4 = f4x4_3x3();
  static const WinogradMatrices f6 = f6x6_3x3();
  if (m == 2) return f2;
  if (m == 4) return f4;
  if (m == 6) return f6;
  throw KernelError("Winograd F(" + std::to_string(m) + "x" + std::to_string(m) +
                    ", 3x3) is not available (output tiles 2, 4 and 6 are)");
}

std::vector<float> winograd_filter_transform(const WinogradMatrices& t, std::span<const float> oihw,
                                             int64_t out_channels, int64_t in_channels) {
  const int64_t pairs = out_channels * in_channels;
  if (static_cast<int64_t>(oihw.size()) != pairs * 9)
    throw KernelError("Winograd filter transform: expected " + std::to_string(pairs * 9) + " weights of 3x3 filters, got " +
                      std::to_string(oihw.size()));
  std::vector<float> result(static_cast<size_t>(t.alpha * t.alpha * pairs));
  for (int64_t pair = 0; pair < pairs; ++pair) {
    const float* g = oihw.data() + pair * 9;
    // Gg = G g (alpha x 3), then U = Gg G^T (alpha x alpha), in double: the weights are
    // transformed once, so there is no reason to add rounding here.
    double gg[8][3] = {};
    for (int64_t k = 0; k < t.alpha; ++k)
      for (int64_t j = 0; j < 3; ++j)
        for (int64_t i = 0; i < 3; ++i) gg[k][j] += t.G[k][i] * g[i * 3 + j];
    for (int64_t k = 0; k < t.alpha; ++k)
      for (int64_t l = 0; l < t.alpha; ++l) {
        double u = 0;
        for (int64_t j = 0; j < 3; ++j) u += gg[k][j] * t.G[l][j];
        result[static_cast<size_t>((k * t.alpha + l) * pairs + pair)] = static_cast<float>(u);
      }
  }
  return result;
}

}  // namespace layoutopt::kernels::conv
