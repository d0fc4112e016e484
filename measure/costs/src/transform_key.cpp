#include "layoutopt/costs/transform_key.h"

#include "layoutopt/graph/tensor_type.h"
#include "layoutopt/layout/transform.h"

namespace layoutopt::costs {

TransformKey table_key(const std::vector<int64_t>& shape, const layout::Layout& from, const layout::Layout& to) {
  const layout::Layout plain = layout::canonical_data_layout(shape.size());
  const auto spelled = [&](const layout::Layout& l) { return layout::same_memory_order(shape, l, plain) ? plain : l; };
  return {shape, spelled(from), spelled(to)};
}

std::string describe(const TransformKey& key) {
  return graph::to_string(key.shape) + " " + key.src.str() + " -> " + key.dst.str();
}

}  // namespace layoutopt::costs
