#pragma once
// Axis permutation: both layouts store the same digits (physical axes, after splitting each
// logical axis at every block boundary either layout has) in different orders, e.g. Swin's
// rank-5 and rank-6 transposes, NCHW -> NWHC, OIHW -> OIHW8i16o. Digits that stay adjacent in
// both orders are merged; then, in dst order,
//   - the innermost src digit stays innermost: a copy of contiguous runs (TransformPath::copy_runs);
//   - otherwise: register-tile transposes of the plane of dst's innermost digit and src's
//     innermost digit, looped over the other digits (TransformPath::transpose).
// The plane is cut into chunks that the thread team shares.

#include <cstdint>
#include <optional>
#include <vector>

#include "layoutopt/layout/index_map.h"
#include "transform_strategy.h"

namespace layoutopt::layout::detail {

/// One digit of a permutation, in dst order: its extent and its memory step on each side.
struct PermutedAxis {
  int64_t extent = 1;
  int64_t src_stride = 0;
  int64_t dst_stride = 0;
};

/// The digits of src -> dst in dst order (merged where adjacent in both, extent-1 digits
/// dropped), or nothing when the two layouts' blocks of some logical axis do not nest
/// (e.g. channel blocks 3 and 4 of 12 channels) and the transform is no permutation.
std::optional<std::vector<PermutedAxis>> as_permutation(const IndexMap& src, const IndexMap& dst);

class PermuteStrategy final : public TransformStrategy {
 public:
  /// `axes` as as_permutation returns them, for a transform that is not the identity.
  explicit PermuteStrategy(std::vector<PermutedAxis> axes);

  void run(const float* src, float* dst, TransformTeam team) const override;
  [[nodiscard]] TransformPath path() const override;

 private:
  /// The two digits whose plane one work item covers, by index into axes_: `cols` is the
  /// digit contiguous in src; `rows` is dst's innermost digit, or the next one out when
  /// that is `cols` too (the copy case).
  struct Plane {
    size_t rows = 0;
    size_t cols = 0;
  };

  std::vector<PermutedAxis> axes_;
  Plane plane_;
};

}  // namespace layoutopt::layout::detail
