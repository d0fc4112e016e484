#pragma once
// Both layouts put every element at the same offset (NCHW vs NCHW1c, NC vs NC16c with no
// spatial axes, ...): the transform is a parallel memcpy.

#include <cstdint>

#include "transform_strategy.h"

namespace layoutopt::layout::detail {

class IdentityStrategy final : public TransformStrategy {
 public:
  explicit IdentityStrategy(int64_t elements) : elements_(elements) {}
  void run(const float* src, float* dst, TransformTeam team) const override;
  [[nodiscard]] TransformPath path() const override { return TransformPath::identity; }

 private:
  int64_t elements_;
};

}  // namespace layoutopt::layout::detail
