#include "network/lower_whole_axis.h"

#include <algorithm>

#include "layoutopt/layout/index_map.h"

namespace layoutopt::kernels::network {

std::optional<WholeAxisView> whole_axis_view(const graph::Shape& shape, const layout::Layout& layout, size_t axis) {
  if (shape.size() < 2 || shape.size() > 6 || axis >= shape.size()) return std::nullopt;
  const layout::IndexMap map(shape, layout::canonical_data_layout(shape.size()), layout);
  const std::vector<layout::IndexMap::PhysicalAxis>& physical = map.physical_axes();
  const auto along = [&](const layout::IndexMap::PhysicalAxis& p) { return p.logical_axis == axis; };
  if (std::count_if(physical.begin(), physical.end(), along) != 1) return std::nullopt;  // split into blocks
  const int64_t inner = std::find_if(physical.begin(), physical.end(), along)->stride;
  return WholeAxisView{map.size() / (shape[axis] * inner), shape[axis], inner};
}

}  // namespace layoutopt::kernels::network
