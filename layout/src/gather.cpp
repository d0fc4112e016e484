#include "gather.h"

#include <immintrin.h>

#include <algorithm>
#include <utility>

#include "cpu_features.h"
#include "team_share.h"

namespace layoutopt::layout::detail {

namespace {

// One dst row: consecutive dst elements step through one logical axis by `step`.
struct GatherRow {
  const float* src;      ///< source shifted by the offsets of all other axes
  const int64_t* table;  ///< offsets of the row's axis, starting at the row's first coordinate
  int64_t step;
  int64_t count;
  float* dst;
};

void gather_row_baseline(const GatherRow& row) {
  for (int64_t i = 0; i < row.count; ++i) row.dst[i] = row.src[row.table[i * row.step]];
}

#if defined(__x86_64__)

// GCC's generic tuning never auto-vectorizes gathers, so the unit-step case (the innermost
// axes agree, e.g. blocked weights) uses the AVX-512 gather explicitly, 8 elements at a time.
__attribute__((target("avx512f"))) void gather_row_avx512(const GatherRow& row) {
  int64_t i = 0;
  if (row.step == 1)
    for (; i + 8 <= row.count; i += 8) {
      const __m512i index = _mm512_loadu_si512(row.table + i);
      // The masked form with an explicit zero source sidesteps a false "uninitialized"
      // warning GCC 12 raises inside the unmasked intrinsic.
      _mm256_storeu_ps(row.dst + i, _mm512_mask_i64gather_ps(_mm256_setzero_ps(), 0xFF, index, row.src, 4));
    }
  for (; i < row.count; ++i) row.dst[i] = row.src[row.table[i * row.step]];
}

#endif

}  // namespace

GatherStrategy::GatherStrategy(IndexMap src, const IndexMap& dst)
    : src_(std::move(src)), outer_axes_(dst.physical_axes()), inner_(outer_axes_.back()) {
  outer_axes_.pop_back();
  rows_ = dst.size() / inner_.extent;
}

void GatherStrategy::run(const float* src, float* dst, TransformTeam team) const {
#if defined(__x86_64__)
  const auto gather_row = has_avx512f() ? gather_row_avx512 : gather_row_baseline;
#else
  const auto gather_row = gather_row_baseline;
#endif
  const size_t rank = src_.logical_shape().size();
  const size_t row_axis = inner_.logical_axis;
  for_each_share(rows_, team, [&](int64_t first, int64_t last) {
    std::vector<int64_t> coordinate(rank);
    for (int64_t row = first; row < last; ++row) {
      // Decode the row index into the logical coordinate of its first element.
      std::fill(coordinate.begin(), coordinate.end(), 0);
      int64_t rest = row;
      for (size_t k = outer_axes_.size(); k-- > 0;) {
        const IndexMap::PhysicalAxis& axis = outer_axes_[k];
        coordinate[axis.logical_axis] += rest % axis.extent * axis.multiplier;
        rest /= axis.extent;
      }
      int64_t base = 0;
      for (size_t a = 0; a < rank; ++a)
        if (a != row_axis) base += src_.axis_offsets(a)[static_cast<size_t>(coordinate[a])];
      gather_row({src + base, src_.axis_offsets(row_axis).data() + coordinate[row_axis], inner_.multiplier,
                  inner_.extent, dst + row * inner_.extent});
    }
  });
}

}  // namespace layoutopt::layout::detail
