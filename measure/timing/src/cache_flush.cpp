#include "layoutopt/timing/cache_flush.h"

#include <algorithm>
#include <cstdint>

#include "layoutopt/timing/cache_info.h"

namespace layoutopt::timing {

size_t default_flush_bytes() {
  constexpr size_t kMiB = size_t{1} << 20;
  const int64_t llc = last_level_cache_bytes(read_sysfs_caches());
  if (llc <= 0) return 64 * kMiB;
  return std::clamp(2 * static_cast<size_t>(llc), 32 * kMiB, 1024 * kMiB);
}

CacheFlusher::CacheFlusher(size_t bytes) : buffer_(std::max<size_t>(bytes, 64), 0) {}

void CacheFlusher::flush() {
  constexpr int64_t kLine = 64;
  ++round_;
  unsigned char* data = buffer_.data();
  const auto lines = static_cast<int64_t>(buffer_.size()) / kLine;
  const unsigned char value = round_;
#pragma omp parallel for schedule(static)
  for (int64_t line = 0; line < lines; ++line) data[line * kLine] = value;
}

}  // namespace layoutopt::timing
