#include "layoutopt/tuning/activation_placement.h"

#include <omp.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "layoutopt/cpu/features.h"

namespace layoutopt::tuning {

int64_t row_plane_floats(std::span<const int64_t> logical, const layout::Layout& physical) {
  const std::vector<int64_t> dims = physical.physical_shape(logical, layout::canonical_data_layout(logical.size()));
  const std::vector<layout::Axis>& axes = physical.axes();
  int64_t plane = 1;
  for (size_t i = axes.size(); i-- > 0;) {
    plane *= dims[i];
    if (axes[i].name == 'H') return plane;
  }
  return plane;  // no height axis: the whole tensor
}

PlaneShare plane_share(int64_t plane_floats, int64_t thread, int64_t threads) {
  return {plane_floats * thread / threads, plane_floats * (thread + 1) / threads};
}

void write_rows_per_thread(std::span<float> tensor, int64_t plane_floats) {
  const auto size = static_cast<int64_t>(tensor.size());
  if (plane_floats <= 0 || size % plane_floats != 0)
    throw std::invalid_argument("write_rows_per_thread: " + std::to_string(size) +
                                " floats are not whole planes of " + std::to_string(plane_floats));
  float* data = tensor.data();
#pragma omp parallel
  {
    const PlaneShare share = plane_share(plane_floats, omp_get_thread_num(), omp_get_num_threads());
    for (int64_t plane = 0; plane < size; plane += plane_floats)
      // x + 0.0f is x for every value but -0.0 (which becomes +0.0): a store the compiler
      // must keep, unlike x = x.
      for (int64_t i = plane + share.begin; i < plane + share.end; ++i) data[i] += 0.0f;
  }
}

#if defined(__x86_64__)
namespace {

constexpr size_t kCacheLine = 64;

[[gnu::target("clflushopt")]] void flush_lines_opt(char* begin, char* end) {
  for (char* line = begin; line < end; line += kCacheLine) _mm_clflushopt(line);
}

void flush_lines(char* begin, char* end) {
  for (char* line = begin; line < end; line += kCacheLine) _mm_clflush(line);
}

}  // namespace

void evict_from_caches(std::span<float> memory) {
  if (memory.empty()) return;
  // From the start of the first line: an unaligned start would step past the last one.
  auto* first = reinterpret_cast<char*>(memory.data());
  char* end = first + memory.size_bytes();
  char* begin = first - reinterpret_cast<std::uintptr_t>(first) % kCacheLine;
  // CLFLUSHOPT flushes of different lines overlap; CLFLUSH ones are ordered, several times slower.
  if (cpu::has_feature("clflushopt"))
    flush_lines_opt(begin, end);
  else
    flush_lines(begin, end);
  _mm_sfence();  // the flushes are done before the timed run starts
}
#else
// Elsewhere there is no user-level flush here: the scratch stays where it is.
void evict_from_caches(std::span<float>) {}
#endif

}  // namespace layoutopt::tuning
