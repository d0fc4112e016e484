#pragma once
// ONNX Slice's rule for one axis: negative bounds count from the end, then bounds are
// clamped to the axis (to [0, extent] stepping forward, [-1, extent - 1] stepping back).

#include <cstdint>

namespace layoutopt::graph::onnx {

struct SliceRange {
  int64_t start = 0;
  int64_t step = 1;   ///< 0 only when the file gave step 0 (an error for the caller)
  int64_t count = 0;  ///< elements taken
};

[[nodiscard]] SliceRange slice_range(int64_t extent, int64_t start, int64_t end, int64_t step);

}  // namespace layoutopt::graph::onnx
