#pragma once
// Out-of-place 2-D transpose of a strided float matrix, the kernel behind every
// "one side unblocked" transform (NCHW <-> NCHW[x]c, NHWC <-> NCHW).

#include <cstdint>

namespace layoutopt::layout::detail {

/// dst[c * dst_ld + r] = src[r * src_ld + c] for r < rows, c < cols. Serial: callers split
/// the work across threads. Uses 16x16 AVX-512 or 8x8 AVX2 register tiles when the CPU has
/// them and cache-sized scalar tiles elsewhere.
void transpose(const float* src, int64_t rows, int64_t cols, int64_t src_ld, float* dst, int64_t dst_ld);

}  // namespace layoutopt::layout::detail
