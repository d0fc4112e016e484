#pragma once
// Benchmark inputs must hold ordinary numbers: uninitialised buffers often contain zeros,
// NaNs or denormals, which make arithmetic kernels look several times faster (or slower)
// than on real data. Every timed buffer goes through fill_random first.

#include <cstdint>
#include <span>

namespace layoutopt::timing {

/// Fills `data` with values uniform in [-1, 1), a function of (seed, index) only: the same
/// seed gives the same values whatever the thread count. Values are multiples of 2^-23,
/// never NaN, infinite or denormal. Runs in parallel with OpenMP for large spans.
void fill_random(std::span<float> data, uint64_t seed);

}  // namespace layoutopt::timing
