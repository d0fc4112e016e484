#pragma once
// TransformStrategy: the executable strategy behind a LayoutTransform. One implementation per strategy
// (identity copy, channel re-blocking, generic gather), chosen once when the transform is built.

#include "layoutopt/layout/transform_path.h"
#include "layoutopt/layout/transform_team.h"

namespace layoutopt::layout::detail {

class TransformStrategy {
 public:
  virtual ~TransformStrategy() = default;
  /// Writes every element of `dst`; `src` and `dst` must not overlap. `team` as in
  /// LayoutTransform::run.
  virtual void run(const float* src, float* dst, TransformTeam team) const = 0;
  [[nodiscard]] virtual TransformPath path() const = 0;
};

}  // namespace layoutopt::layout::detail
