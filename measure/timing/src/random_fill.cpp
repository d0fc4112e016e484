#include "layoutopt/timing/random_fill.h"

#include "layoutopt/graph/weights.h"

namespace layoutopt::timing {

void fill_random(std::span<float> data, uint64_t seed) {
  const auto size = static_cast<int64_t>(data.size());
  // The same counter-based generator as seeded weights: element i needs no state from
  // i - 1, so the fill parallelises without changing the values.
#pragma omp parallel for schedule(static) if (size > 65536)
  for (int64_t i = 0; i < size; ++i)
    data[static_cast<size_t>(i)] = graph::uniform_at(seed, static_cast<uint64_t>(i), 0.0f, 1.0f);
}

}  // namespace layoutopt::timing
