#pragma once
// The [outer][extent][inner] view of a tensor around one logical axis that its layout keeps
// whole (one physical axis): what layer norm, slices and concats along that axis need to run
// as kernels in blocked and permuted layouts, not only in canonical order.

#include <cstdint>
#include <optional>

#include "layoutopt/graph/graph.h"
#include "layoutopt/layout/layout.h"

namespace layoutopt::kernels::network {

struct WholeAxisView {
  int64_t outer = 1;
  int64_t extent = 1;
  int64_t inner = 1;  ///< the axis's memory step
};

/// Nothing when `layout` splits `axis` into blocks, or for ranks outside 2 to 6.
[[nodiscard]] std::optional<WholeAxisView> whole_axis_view(const graph::Shape& shape, const layout::Layout& layout,
                                                           size_t axis);

}  // namespace layoutopt::kernels::network
