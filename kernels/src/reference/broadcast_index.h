#pragma once
// Numpy-style index mapping shared by the broadcasting and reducing reference operators
// (internal).

#include <cstdint>
#include <vector>

namespace layoutopt::kernels::reference {

/// Index into `shape` (right-aligned inside `out_shape`) of the element at `out_index` of
/// `out_shape`, with size-1 axes of `shape` broadcast: the element a broadcast reads, or
/// the slot a reduction over those axes accumulates into.
inline int64_t broadcast_index(const std::vector<int64_t>& shape, const std::vector<int64_t>& out_shape,
                               int64_t out_index) {
  int64_t index = 0;
  int64_t stride = 1;
  for (size_t k = out_shape.size(); k-- > 0;) {
    const int64_t coordinate = out_index % out_shape[k];
    out_index /= out_shape[k];
    const size_t offset = out_shape.size() - shape.size();
    if (k < offset) continue;
    const int64_t extent = shape[k - offset];
    index += (extent == 1 ? 0 : coordinate) * stride;
    stride *= extent;
  }
  return index;
}

}  // namespace layoutopt::kernels::reference
