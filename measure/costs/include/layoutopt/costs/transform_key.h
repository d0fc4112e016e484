#pragma once
// TransformKey: what one layout transform is, for the transform table (transform_table.h)
// and the enumeration of the transforms a plan may need (transform_enumeration.h), which both
// use it: a tensor's logical shape and the (source, destination) layouts, as table_key spells
// them. Layouts are spelled as text only by the table's reader and writer and in messages.

#include <compare>
#include <cstdint>
#include <string>
#include <vector>

#include "layoutopt/layout/layout.h"

namespace layoutopt::costs {

struct TransformKey {
  std::vector<int64_t> shape;  ///< logical shape, NCHW or NC
  layout::Layout src;          ///< e.g. NCHW
  layout::Layout dst;          ///< e.g. NCHW16c
  /// Shape, then layouts in Layout's order: keys of maps and sorted lists.
  auto operator<=>(const TransformKey&) const = default;
};

/// The key a transform table times the transform of `shape` from `from` to `to` under: a
/// layout that places every element where the plain layout does (NCHW1c, or any block of a
/// 1x1 map) is spelled as the plain layout.
[[nodiscard]] TransformKey table_key(const std::vector<int64_t>& shape, const layout::Layout& from,
                                     const layout::Layout& to);

/// "[1, 64, 56, 56] NCHW -> NCHW16c", for messages.
[[nodiscard]] std::string describe(const TransformKey& key);

}  // namespace layoutopt::costs
