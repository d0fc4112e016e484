#pragma once
// LayoutTransform: copies a float tensor from one layout to another, e.g. NCHW -> NCHW16c.
//
//   auto t = LayoutTransform::for_activation({1, 64, 56, 56}, Layout::nchw(), Layout::nchwc(16));
//   t.run(src, dst);                  // multi-threaded (OpenMP), vectorized
//   double bytes = t.bytes_moved();   // what a cost model charges for this edge
//
// Building the transform validates the shape against both layouts (LayoutError when, say, a
// block of 16 does not divide C = 3) and picks the cheapest strategy once:
//   identity     both layouts put every element at the same offset: a plain copy
//   copy_runs    both are channel-blocked ([outer][C/b][spatial][b], which includes NCHW with
//                b = 1 and NHWC with b = C) and the blocks share runs of >= 2 channels,
//                e.g. NCHW8c <-> NCHW16c, NHWC <-> NCHW16c
//   transpose    channel-blocked with one side unblocked, e.g. NCHW <-> NCHW16c, NHWC <-> NCHW
//   copy_runs /  any other reordering of the same digits (each logical axis split at every
//   transpose    block boundary of either layout, e.g. transposes of rank 2-6, NCHW -> NWHC,
//                OIHW -> OIHW8i16o): copies of runs when the innermost source digit stays
//                innermost, register-tile transposes otherwise
//   gather       anything else the Layout algebra expresses (blocks that do not nest, e.g.
//                channel blocks 3 and 4 of 12), by per-axis offset tables (see IndexMap)
// A transform is an immutable value; copies share the strategy and may run concurrently.

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "layoutopt/layout/layout.h"
#include "layoutopt/layout/transform_path.h"
#include "layoutopt/layout/transform_team.h"

namespace layoutopt::layout {

namespace detail {
class TransformStrategy;
}

class LayoutTransform {
 public:
  /// `logical` is the tensor shape in the order of `canonical` (NCHW, OIHW, NC, ...).
  LayoutTransform(std::vector<int64_t> logical, Layout canonical, Layout src, Layout dst);
  /// Activations: the canonical layout follows from the rank (NC, NCW, NCHW).
  static LayoutTransform for_activation(std::vector<int64_t> logical, Layout src, Layout dst);

  /// Writes all elements() of `dst` from `src`; the buffers must not overlap.
  void run(const float* src, float* dst, TransformTeam team = TransformTeam::own) const;
  /// As above, but checks that both spans hold exactly elements() floats.
  void run(std::span<const float> src, std::span<float> dst) const;
  /// Convenience for ahead-of-time work such as weight re-layout.
  [[nodiscard]] std::vector<float> apply(std::span<const float> src) const;

  [[nodiscard]] int64_t elements() const { return elements_; }
  /// Bytes read plus bytes written by one run().
  [[nodiscard]] int64_t bytes_moved() const { return 2 * elements_ * int64_t{sizeof(float)}; }
  [[nodiscard]] TransformPath path() const;
  [[nodiscard]] const std::vector<int64_t>& logical_shape() const { return logical_; }
  [[nodiscard]] const Layout& canonical_layout() const { return canonical_; }
  [[nodiscard]] const Layout& src_layout() const { return src_; }
  [[nodiscard]] const Layout& dst_layout() const { return dst_; }

 private:
  std::vector<int64_t> logical_;
  Layout canonical_, src_, dst_;
  int64_t elements_ = 0;
  std::shared_ptr<const detail::TransformStrategy> strategy_;
};

/// True when both layouts of an activation of `logical` shape put every element at the same
/// offset (NCHW and NCHW1c; NCHW and NCHW16c of a [1, C, 1, 1] tensor): switching between
/// them is a reinterpretation, not a copy, and costs nothing.
[[nodiscard]] bool same_memory_order(const std::vector<int64_t>& logical, const Layout& a, const Layout& b);

/// True when `layout` stores an activation of `logical` shape in canonical (row-major)
/// order: what kernels that read a tensor as flat rows need.
[[nodiscard]] bool in_canonical_order(const std::vector<int64_t>& logical, const Layout& layout);

}  // namespace layoutopt::layout
