#include "transpose.h"

#include <immintrin.h>

#include <algorithm>
#include <span>

#include "cpu_features.h"

namespace layoutopt::layout::detail {

namespace {

using TileFn = void (*)(const float* src, int64_t src_ld, float* dst, int64_t dst_ld);

struct Tile {
  int64_t size;
  TileFn fn;
};

void transpose_scalar(const float* src, int64_t rows, int64_t cols, int64_t src_ld, float* dst, int64_t dst_ld) {
  // Blocked so that both the strided reads and the strided writes stay in L1.
  constexpr int64_t kBlock = 8;
  for (int64_t r0 = 0; r0 < rows; r0 += kBlock)
    for (int64_t c0 = 0; c0 < cols; c0 += kBlock)
      for (int64_t c = c0; c < std::min(c0 + kBlock, cols); ++c)
        for (int64_t r = r0; r < std::min(r0 + kBlock, rows); ++r) dst[c * dst_ld + r] = src[r * src_ld + c];
}

#if defined(__x86_64__)

// GCC 12 at -O3 warns inside its own AVX-512 headers that the placeholder vector of
// _mm512_undefined_ps is used uninitialized (GCC bug 105593); the value is never read.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

// 16x16 in registers: pairwise unpack, 4x4 shuffles inside 128-bit lanes, then a 4x4
// transpose of the lanes themselves.
__attribute__((target("avx512f"))) void tile16_avx512(const float* src, int64_t src_ld, float* dst, int64_t dst_ld) {
  __m512 r[16], t[16];
  for (int i = 0; i < 16; ++i) r[i] = _mm512_loadu_ps(src + i * src_ld);
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
  }
  // r[4g + j] now holds, in lane L, column 4L + j of rows 4g .. 4g + 3.
  for (int g = 0; g < 16; g += 4) {
    r[g + 0] = _mm512_shuffle_ps(t[g], t[g + 2], 0x44);
    r[g + 1] = _mm512_shuffle_ps(t[g], t[g + 2], 0xEE);
    r[g + 2] = _mm512_shuffle_ps(t[g + 1], t[g + 3], 0x44);
    r[g + 3] = _mm512_shuffle_ps(t[g + 1], t[g + 3], 0xEE);
  }
  for (int j = 0; j < 4; ++j) {
    const __m512 w0 = _mm512_shuffle_f32x4(r[j], r[4 + j], 0x44);
    const __m512 w1 = _mm512_shuffle_f32x4(r[j], r[4 + j], 0xEE);
    const __m512 w2 = _mm512_shuffle_f32x4(r[8 + j], r[12 + j], 0x44);
    const __m512 w3 = _mm512_shuffle_f32x4(r[8 + j], r[12 + j], 0xEE);
    _mm512_storeu_ps(dst + (0 + j) * dst_ld, _mm512_shuffle_f32x4(w0, w2, 0x88));
    _mm512_storeu_ps(dst + (4 + j) * dst_ld, _mm512_shuffle_f32x4(w0, w2, 0xDD));
    _mm512_storeu_ps(dst + (8 + j) * dst_ld, _mm512_shuffle_f32x4(w1, w3, 0x88));
    _mm512_storeu_ps(dst + (12 + j) * dst_ld, _mm512_shuffle_f32x4(w1, w3, 0xDD));
  }
}

__attribute__((target("avx2"))) void tile8_avx2(const float* src, int64_t src_ld, float* dst, int64_t dst_ld) {
  __m256 r[8], t[8];
  for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(src + i * src_ld);
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
  }
  for (int g = 0; g < 8; g += 4) {
    r[g + 0] = _mm256_shuffle_ps(t[g], t[g + 2], 0x44);
    r[g + 1] = _mm256_shuffle_ps(t[g], t[g + 2], 0xEE);
    r[g + 2] = _mm256_shuffle_ps(t[g + 1], t[g + 3], 0x44);
    r[g + 3] = _mm256_shuffle_ps(t[g + 1], t[g + 3], 0xEE);
  }
  for (int j = 0; j < 4; ++j) {
    _mm256_storeu_ps(dst + j * dst_ld, _mm256_permute2f128_ps(r[j], r[4 + j], 0x20));
    _mm256_storeu_ps(dst + (4 + j) * dst_ld, _mm256_permute2f128_ps(r[j], r[4 + j], 0x31));
  }
}

#pragma GCC diagnostic pop

#endif

// Register tiles this CPU can run, largest first.
std::span<const Tile> available_tiles() {
#if defined(__x86_64__)
  static const Tile both[] = {{16, tile16_avx512}, {8, tile8_avx2}};
  if (has_avx512f()) return both;
  if (has_avx2()) return std::span<const Tile>(both).subspan(1);
#endif
  return {};
}

// Covers the largest tile-aligned corner with the first tile size and hands the right and
// bottom strips to the next smaller one; the scalar kernel takes what no tile fits.
void transpose_region(std::span<const Tile> tiles, const float* src, int64_t rows, int64_t cols, int64_t src_ld,
                      float* dst, int64_t dst_ld) {
  if (rows == 0 || cols == 0) return;
  if (tiles.empty()) {
    transpose_scalar(src, rows, cols, src_ld, dst, dst_ld);
    return;
  }
  const Tile tile = tiles.front();
  const int64_t full_rows = rows - rows % tile.size;
  const int64_t full_cols = cols - cols % tile.size;
  for (int64_t r = 0; r < full_rows; r += tile.size)
    for (int64_t c = 0; c < full_cols; c += tile.size)
      tile.fn(src + r * src_ld + c, src_ld, dst + c * dst_ld + r, dst_ld);
  const std::span<const Tile> smaller = tiles.subspan(1);
  transpose_region(smaller, src + full_cols, full_rows, cols - full_cols, src_ld, dst + full_cols * dst_ld, dst_ld);
  transpose_region(smaller, src + full_rows * src_ld, rows - full_rows, cols, src_ld, dst + full_rows, dst_ld);
}

}  // namespace

void transpose(const float* src, int64_t rows, int64_t cols, int64_t src_ld, float* dst, int64_t dst_ld) {
  transpose_region(available_tiles(), src, rows, cols, src_ld, dst, dst_ld);
}

}  // namespace layoutopt::layout::detail
