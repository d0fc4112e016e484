#pragma once
// Visits every multi-index of a row-major shape in order: the loop under every fold rule
// that moves or combines elements.

#include <cstdint>
#include <vector>

#include "layoutopt/graph/tensor_type.h"

namespace layoutopt::graph::onnx {

/// Calls visit(index) for index = [0, ..., 0], [0, ..., 1], ... up to dims - 1.
template <class Visit>
void for_each_index(const Shape& dims, Visit visit) {
  std::vector<int64_t> index(dims.size(), 0);
  const int64_t count = element_count(dims);
  for (int64_t flat = 0; flat < count; ++flat) {
    visit(static_cast<const std::vector<int64_t>&>(index));
    for (size_t d = dims.size(); d-- > 0;) {
      if (++index[d] < dims[d]) break;
      index[d] = 0;
    }
  }
}

}  // namespace layoutopt::graph::onnx
