#include "permute.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "team_share.h"
#include "transpose.h"

namespace layoutopt::layout::detail {

namespace {

// One digit of one layout: the logical coordinate contributes (x / multiplier % extent) * stride.
struct Digit {
  size_t logical_axis = 0;
  int64_t multiplier = 1;
  int64_t extent = 1;
  int64_t stride = 0;
};

// Block boundaries of each logical axis in either layout, ascending; nothing when some
// boundary does not divide the next one (the blocks do not nest).
std::optional<std::vector<std::vector<int64_t>>> common_cuts(const IndexMap& src, const IndexMap& dst) {
  std::vector<std::vector<int64_t>> cuts(src.logical_shape().size());
  for (const IndexMap* map : {&src, &dst})
    for (const IndexMap::PhysicalAxis& axis : map->physical_axes()) {
      cuts[axis.logical_axis].push_back(axis.multiplier);
      cuts[axis.logical_axis].push_back(axis.multiplier * axis.extent);
    }
  for (size_t a = 0; a < cuts.size(); ++a) {
    std::vector<int64_t>& axis_cuts = cuts[a];
    axis_cuts.push_back(1);
    axis_cuts.push_back(src.logical_shape()[a]);
    std::sort(axis_cuts.begin(), axis_cuts.end());
    axis_cuts.erase(std::unique(axis_cuts.begin(), axis_cuts.end()), axis_cuts.end());
    for (size_t i = 1; i < axis_cuts.size(); ++i)
      if (axis_cuts[i] % axis_cuts[i - 1] != 0) return std::nullopt;
  }
  return cuts;
}

// The layout's physical axes split at every cut, outermost first.
std::vector<Digit> split_digits(const IndexMap& map, const std::vector<std::vector<int64_t>>& cuts) {
  std::vector<Digit> digits;
  for (const IndexMap::PhysicalAxis& axis : map.physical_axes()) {
    const std::vector<int64_t>& axis_cuts = cuts[axis.logical_axis];
    for (size_t i = axis_cuts.size() - 1; i-- > 0;)
      if (axis_cuts[i] >= axis.multiplier && axis_cuts[i + 1] <= axis.multiplier * axis.extent)
        digits.push_back({axis.logical_axis, axis_cuts[i], axis_cuts[i + 1] / axis_cuts[i],
                          axis.stride * (axis_cuts[i] / axis.multiplier)});
  }
  return digits;
}

// Appends `axis`, merged into the previous one when it continues it on both sides.
void append_merged(std::vector<PermutedAxis>& axes, const PermutedAxis& axis) {
  if (axis.extent == 1) return;
  if (!axes.empty()) {
    PermutedAxis& outer = axes.back();
    if (outer.src_stride == axis.src_stride * axis.extent && outer.dst_stride == axis.dst_stride * axis.extent) {
      outer = {outer.extent * axis.extent, axis.src_stride, axis.dst_stride};
      return;
    }
  }
  axes.push_back(axis);
}

// Work items: a transposed chunk of 64 x 64 floats stays in L1 on both sides; a copied one
// is rows of up to 16 Ki floats (memcpy's wide loops), about 4 Ki floats in all, so that
// short runs (Swin's 32-float heads) come many to an item.
constexpr int64_t kTileChunk = 64;
constexpr int64_t kCopyRow = 16 * 1024;
constexpr int64_t kCopyItem = 4 * 1024;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

std::optional<std::vector<PermutedAxis>> as_permutation(const IndexMap& src, const IndexMap& dst) {
  const auto cuts = common_cuts(src, dst);
  if (!cuts) return std::nullopt;
  const std::vector<Digit> src_digits = split_digits(src, *cuts);
  const std::vector<Digit> dst_digits = split_digits(dst, *cuts);
  if (src_digits.size() != dst_digits.size()) return std::nullopt;
  std::vector<PermutedAxis> axes;
  for (const Digit& digit : dst_digits) {
    const auto same_digit = [&](const Digit& other) {
      return other.logical_axis == digit.logical_axis && other.multiplier == digit.multiplier &&
             other.extent == digit.extent;
    };
    const auto match = std::find_if(src_digits.begin(), src_digits.end(), same_digit);
    if (match == src_digits.end()) return std::nullopt;
    append_merged(axes, {digit.extent, match->stride, digit.stride});
  }
  return axes;
}

PermuteStrategy::PermuteStrategy(std::vector<PermutedAxis> axes) : axes_(std::move(axes)) {
  if (axes_.empty()) axes_.push_back({1, 1, 1});  // a single element
  while (axes_.size() < 2) axes_.insert(axes_.begin(), PermutedAxis{1, 0, 0});
  const auto contiguous = std::find_if(axes_.begin(), axes_.end(), [](const PermutedAxis& a) { return a.src_stride == 1; });
  plane_.cols = static_cast<size_t>(contiguous - axes_.begin());
  plane_.rows = plane_.cols == axes_.size() - 1 ? axes_.size() - 2 : axes_.size() - 1;
}

TransformPath PermuteStrategy::path() const {
  return plane_.cols == axes_.size() - 1 ? TransformPath::copy_runs : TransformPath::transpose;
}

void PermuteStrategy::run(const float* src, float* dst, TransformTeam team) const {
  const PermutedAxis& row_axis = axes_[plane_.rows];
  const PermutedAxis& col_axis = axes_[plane_.cols];
  const bool copy = path() == TransformPath::copy_runs;
  const int64_t col_chunk = copy ? kCopyRow : kTileChunk;
  const int64_t rows_per_item =
      copy ? std::max<int64_t>(1, kCopyItem / std::min(col_axis.extent, kCopyRow)) : kTileChunk;
  const int64_t row_items = ceil_div(row_axis.extent, rows_per_item);
  const int64_t col_items = ceil_div(col_axis.extent, col_chunk);
  int64_t outer_items = 1;
  for (size_t k = 0; k < axes_.size(); ++k)
    if (k != plane_.rows && k != plane_.cols) outer_items *= axes_[k].extent;
  for_each_share(outer_items * row_items * col_items, team, [&](int64_t first, int64_t last) {
    for (int64_t item = first; item < last; ++item) {
      const int64_t r0 = item / col_items % row_items * rows_per_item;
      const int64_t c0 = item % col_items * col_chunk;
      const int64_t rows = std::min(rows_per_item, row_axis.extent - r0);
      const int64_t cols = std::min(col_chunk, col_axis.extent - c0);
      int64_t rest = item / (col_items * row_items);
      int64_t src_base = r0 * row_axis.src_stride + c0 * col_axis.src_stride;
      int64_t dst_base = r0 * row_axis.dst_stride + c0 * col_axis.dst_stride;
      for (size_t k = axes_.size(); k-- > 0;) {
        if (k == plane_.rows || k == plane_.cols) continue;
        const int64_t digit = rest % axes_[k].extent;
        rest /= axes_[k].extent;
        src_base += digit * axes_[k].src_stride;
        dst_base += digit * axes_[k].dst_stride;
      }
      if (copy) {
        for (int64_t r = 0; r < rows; ++r)
          std::memcpy(dst + dst_base + r * row_axis.dst_stride, src + src_base + r * row_axis.src_stride,
                      static_cast<size_t>(cols) * sizeof(float));
      } else {
        transpose(src + src_base, rows, cols, row_axis.src_stride, dst + dst_base, col_axis.dst_stride);
      }
    }
  });
}

}  // namespace layoutopt::layout::detail
