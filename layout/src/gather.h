#pragma once
// Generic relayout for any pair of layouts of the same tensor: walk dst in memory order and
// fetch each element through the source's per-axis offset tables (see IndexMap). Serves
// everything the fast paths do not, e.g. weight blockings such as OIHW -> OIHW8i16o.

#include <vector>

#include "layoutopt/layout/index_map.h"
#include "transform_strategy.h"

namespace layoutopt::layout::detail {

class GatherStrategy final : public TransformStrategy {
 public:
  /// Both maps describe the same logical tensor.
  GatherStrategy(IndexMap src, const IndexMap& dst);

  void run(const float* src, float* dst, TransformTeam team) const override;
  [[nodiscard]] TransformPath path() const override { return TransformPath::gather; }

 private:
  IndexMap src_;
  std::vector<IndexMap::PhysicalAxis> outer_axes_;  ///< dst axes but the innermost
  IndexMap::PhysicalAxis inner_;                    ///< dst innermost axis: one row
  int64_t rows_ = 0;
};

}  // namespace layoutopt::layout::detail
