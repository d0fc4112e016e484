#pragma once
// IndexMap: where each logical element of a tensor lives in memory under a layout.
//
// Every physical axis of a layout belongs to exactly one logical axis, so the memory offset
// of a logical coordinate is a sum of one term per logical axis:
//
//   offset(x_0, ..., x_r) = T_0[x_0] + ... + T_r[x_r]
//
// IndexMap precomputes these per-axis tables. That makes any relayout a table lookup per
// element (no division in inner loops) and lets two layouts be compared for physical
// equality by comparing tables. Offsets are in elements, not bytes.

#include <cstdint>
#include <span>
#include <vector>

#include "layoutopt/layout/layout.h"

namespace layoutopt::layout {

class IndexMap {
 public:
  /// One physical axis, outermost first. The logical coordinate it encodes contributes
  /// `digit * multiplier` to the coordinate of `logical_axis`; `stride` is its memory step.
  struct PhysicalAxis {
    size_t logical_axis = 0;
    int64_t extent = 0;
    int64_t multiplier = 0;
    int64_t stride = 0;
  };

  /// `logical` is given in the order of `canonical` (e.g. NCHW); throws LayoutError when
  /// `layout` does not fit (see Layout::physical_shape).
  IndexMap(std::span<const int64_t> logical, const Layout& canonical, const Layout& layout);

  [[nodiscard]] const std::vector<int64_t>& logical_shape() const { return logical_; }
  [[nodiscard]] const std::vector<PhysicalAxis>& physical_axes() const { return physical_; }
  [[nodiscard]] int64_t size() const { return size_; }

  /// T_axis: memory offset contributed by logical axis `axis` at each coordinate.
  [[nodiscard]] const std::vector<int64_t>& axis_offsets(size_t axis) const { return tables_[axis]; }
  /// Memory offset of one logical coordinate (given in canonical order).
  [[nodiscard]] int64_t offset(std::span<const int64_t> coordinate) const;
  /// True when both maps put every logical element at the same offset.
  [[nodiscard]] bool same_offsets(const IndexMap& other) const { return tables_ == other.tables_; }

 private:
  std::vector<int64_t> logical_;
  std::vector<PhysicalAxis> physical_;
  std::vector<std::vector<int64_t>> tables_;
  int64_t size_ = 1;
};

}  // namespace layoutopt::layout
