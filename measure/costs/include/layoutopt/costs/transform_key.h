#pragma once
// TransformKey: what one layout transform is, for the transform table (transform_table.h)
// and the enumeration of the transforms a plan may need (transform_enumeration.h), which both
// use it: a tensor's logical shape and the (source, destination) layouts, spelled the way the
// table stores them.

#include <compare>
#include <cstdint>
#include <string>
#include <vector>

#include "layoutopt/layout/layout.h"

namespace layoutopt::costs {

struct TransformKey {
  std::vector<int64_t> shape;  ///< logical shape, NCHW or NC
  std::string src;             ///< e.g. "NCHW"
  std::string dst;             ///< e.g. "NCHW16c"
  auto operator<=>(const TransformKey&) const = default;
};

/// The key a transform table times the transform of `shape` from `from` to `to` under: a
/// layout that places every element where the plain layout does (NCHW1c, or any block of a
/// 1x1 map) is spelled as the plain layout.
[[nodiscard]] TransformKey table_key(const std::vector<int64_t>& shape, const layout::Layout& from,
                                     const layout::Layout& to);

}  // namespace layoutopt::costs
