#include "identity.h"

#include <algorithm>
#include <cstring>

namespace layoutopt::layout::detail {

void IdentityStrategy::run(const float* src, float* dst) const {
  // 64 KiB chunks: big enough for memcpy's wide loops, small enough to spread over threads.
  constexpr int64_t kChunk = 16 * 1024;
  const int64_t chunks = (elements_ + kChunk - 1) / kChunk;
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < chunks; ++i) {
    const int64_t begin = i * kChunk;
    const int64_t count = std::min(kChunk, elements_ - begin);
    std::memcpy(dst + begin, src + begin, static_cast<size_t>(count) * sizeof(float));
  }
}

}  // namespace layoutopt::layout::detail
