#include "slice_range.h"

#include <algorithm>

namespace layoutopt::graph::onnx {

SliceRange slice_range(int64_t extent, int64_t start, int64_t end, int64_t step) {
  if (step == 0) return {0, 0, 0};
  // Exporters write INT64_MIN / INT64_MAX for open ends; adding the extent cannot overflow.
  if (start < 0) start += extent;
  if (end < 0) end += extent;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, extent);
    end = std::clamp<int64_t>(end, 0, extent);
    return {start, step, end > start ? (end - start + step - 1) / step : 0};
  }
  start = std::clamp<int64_t>(start, 0, extent - 1);
  end = std::clamp<int64_t>(end, -1, extent - 1);
  return {start, step, start > end ? (start - end - step - 1) / -step : 0};
}

}  // namespace layoutopt::graph::onnx
