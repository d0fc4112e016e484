#include "layoutopt/measure/random_fill.h"

namespace layoutopt::measure {

namespace {

// SplitMix64 finaliser: a counter-based generator, so element i needs no state from i - 1
// and the fill parallelises without changing the values.
uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

}  // namespace

void fill_random(std::span<float> data, uint64_t seed) {
  const uint64_t key = mix(seed);
  const auto size = static_cast<int64_t>(data.size());
  constexpr float kScale = 1.0f / static_cast<float>(1 << 23);
#pragma omp parallel for schedule(static) if (size > 65536)
  for (int64_t i = 0; i < size; ++i) {
    // 24 random bits, centred: an exact float in [-1, 1).
    const auto bits = static_cast<int32_t>(mix(key ^ static_cast<uint64_t>(i)) >> 40);
    data[static_cast<size_t>(i)] = static_cast<float>(bits - (1 << 23)) * kScale;
  }
}

}  // namespace layoutopt::measure
