#include "layoutopt/layout/transform.h"

#include <utility>

#include "channel_blocked.h"
#include "gather.h"
#include "identity.h"
#include "layoutopt/layout/index_map.h"
#include "permute.h"
#include "reblock.h"

namespace layoutopt::layout {

namespace {

std::string shape_string(const std::vector<int64_t>& shape) {
  std::string text;
  for (const int64_t extent : shape) text += (text.empty() ? "" : "x") + std::to_string(extent);
  return text;
}

// Fastest strategy first: identity, channel re-blocking, axis permutation, then the generic
// gather for blocks that do not nest.
std::shared_ptr<const detail::TransformStrategy> make_strategy(const std::vector<int64_t>& logical,
                                                               const Layout& canonical, const Layout& src,
                                                               const Layout& dst) {
  IndexMap src_map(logical, canonical, src);
  const IndexMap dst_map(logical, canonical, dst);
  if (src_map.same_offsets(dst_map)) return std::make_shared<detail::IdentityStrategy>(src_map.size());
  const char channel = canonical.primal_axes().size() >= 2 ? canonical.primal_axes()[1] : 0;
  const auto src_view = detail::as_channel_blocked(src_map, src.block_of(channel));
  const auto dst_view = detail::as_channel_blocked(dst_map, dst.block_of(channel));
  if (src_view && dst_view && detail::ReblockStrategy::supports(*src_view, *dst_view))
    return std::make_shared<detail::ReblockStrategy>(*src_view, *dst_view);
  if (auto axes = detail::as_permutation(src_map, dst_map))
    return std::make_shared<detail::PermuteStrategy>(std::move(*axes));
  return std::make_shared<detail::GatherStrategy>(std::move(src_map), dst_map);
}

}  // namespace

LayoutTransform::LayoutTransform(std::vector<int64_t> logical, Layout canonical, Layout src, Layout dst)
    : logical_(std::move(logical)), canonical_(std::move(canonical)), src_(std::move(src)), dst_(std::move(dst)) {
  for (const int64_t extent : logical_)
    if (extent < 1)
      throw LayoutError("transform " + src_.str() + " -> " + dst_.str() + ": shape " + shape_string(logical_) +
                        " has an empty axis");
  try {
    strategy_ = make_strategy(logical_, canonical_, src_, dst_);
  } catch (const LayoutError& e) {
    throw LayoutError("transform " + src_.str() + " -> " + dst_.str() + " of shape " + shape_string(logical_) + " (" +
                      canonical_.str() + "): " + e.what());
  }
  elements_ = 1;
  for (const int64_t extent : logical_) elements_ *= extent;
}

LayoutTransform LayoutTransform::for_activation(std::vector<int64_t> logical, Layout src, Layout dst) {
  Layout canonical = canonical_data_layout(logical.size());
  return {std::move(logical), std::move(canonical), std::move(src), std::move(dst)};
}

void LayoutTransform::run(const float* src, float* dst, TransformTeam team) const { strategy_->run(src, dst, team); }

void LayoutTransform::run(std::span<const float> src, std::span<float> dst) const {
  const auto expected = static_cast<size_t>(elements_);
  if (src.size() != expected || dst.size() != expected)
    throw LayoutError("transform " + src_.str() + " -> " + dst_.str() + " of shape " + shape_string(logical_) +
                      " needs buffers of " + std::to_string(expected) + " floats, got " + std::to_string(src.size()) +
                      " and " + std::to_string(dst.size()));
  run(src.data(), dst.data());
}

std::vector<float> LayoutTransform::apply(std::span<const float> src) const {
  std::vector<float> dst(static_cast<size_t>(elements_));
  run(src, dst);
  return dst;
}

TransformPath LayoutTransform::path() const { return strategy_->path(); }

bool same_memory_order(const std::vector<int64_t>& logical, const Layout& a, const Layout& b) {
  return a == b || LayoutTransform::for_activation(logical, a, b).path() == TransformPath::identity;
}

bool in_canonical_order(const std::vector<int64_t>& logical, const Layout& layout) {
  return same_memory_order(logical, layout, canonical_data_layout(logical.size()));
}

}  // namespace layoutopt::layout
