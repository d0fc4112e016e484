#include "slice_range.h"

#include <algorithm>

namespace layoutopt::graph::onnx {

SliceRange slice_range(int64_t extent, int64_t start, int64_t end, int64_t step) {
  if (step == 0) return {0, 0, 0};
  if (extent == 0) return {0, step, 0};  // nothing to clamp into
  // Exporters write INT64_MIN / INT64_MAX for open ends; adding the extent cannot overflow.
  if (start < 0) start += extent;
  if (end < 0) end += extent;
  // Counts are 1 + (distance - 1) / |step|: no intermediate exceeds the distance, and |step|
  // is taken as unsigned, since a file may give a step of INT64_MIN.
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, extent);
    end = std::clamp<int64_t>(end, 0, extent);
    return {start, step, end > start ? 1 + (end - start - 1) / step : 0};
  }
  start = std::clamp<int64_t>(start, 0, extent - 1);
  end = std::clamp<int64_t>(end, -1, extent - 1);
  const uint64_t magnitude = uint64_t{0} - static_cast<uint64_t>(step);
  return {start, step, start > end ? 1 + static_cast<int64_t>(static_cast<uint64_t>(start - end - 1) / magnitude) : 0};
}

}  // namespace layoutopt::graph::onnx
