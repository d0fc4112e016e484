#include "identity.h"

#include <algorithm>
#include <cstring>

#include "team_share.h"

namespace layoutopt::layout::detail {

void IdentityStrategy::run(const float* src, float* dst, TransformTeam team) const {
  // 64 KiB chunks: big enough for memcpy's wide loops, small enough to spread over threads.
  constexpr int64_t kChunk = 16 * 1024;
  const int64_t chunks = (elements_ + kChunk - 1) / kChunk;
  for_each_share(chunks, team, [&](int64_t first, int64_t last) {
    const int64_t begin = first * kChunk;
    const int64_t count = std::min(last * kChunk, elements_) - begin;
    std::memcpy(dst + begin, src + begin, static_cast<size_t>(count) * sizeof(float));
  });
}

}  // namespace layoutopt::layout::detail
