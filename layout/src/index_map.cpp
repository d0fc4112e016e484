#include "layoutopt/layout/index_map.h"

#include <cctype>
#include <string>

namespace layoutopt::layout {

namespace {

char primal_of(const Axis& axis) { return static_cast<char>(std::toupper(static_cast<unsigned char>(axis.name))); }

// A primal axis digit counts whole blocks; a sub-axis digit counts the blocks of the
// sub-axes nested inside it, i.e. those of the same primal axis that appear later.
int64_t multiplier_of(const std::vector<Axis>& axes, size_t k) {
  const char primal = primal_of(axes[k]);
  int64_t multiplier = 1;
  for (size_t j = axes[k].is_primal() ? 0 : k + 1; j < axes.size(); ++j)
    if (!axes[j].is_primal() && primal_of(axes[j]) == primal) multiplier *= axes[j].factor;
  return multiplier;
}

}  // namespace

IndexMap::IndexMap(std::span<const int64_t> logical, const Layout& canonical, const Layout& layout)
    : logical_(logical.begin(), logical.end()) {
  const std::vector<int64_t> extents = layout.physical_shape(logical, canonical);
  const std::string canonical_axes = canonical.primal_axes();
  const std::vector<Axis>& axes = layout.axes();
  physical_.resize(axes.size());
  int64_t stride = 1;
  for (size_t k = axes.size(); k-- > 0;) {
    physical_[k] = {canonical_axes.find(primal_of(axes[k])), extents[k], multiplier_of(axes, k), stride};
    stride *= extents[k];
  }
  size_ = stride;
  tables_.resize(logical_.size());
  for (size_t a = 0; a < logical_.size(); ++a) tables_[a].assign(static_cast<size_t>(logical_[a]), 0);
  for (const PhysicalAxis& axis : physical_) {
    std::vector<int64_t>& table = tables_[axis.logical_axis];
    for (size_t x = 0; x < table.size(); ++x)
      table[x] += (static_cast<int64_t>(x) / axis.multiplier % axis.extent) * axis.stride;
  }
}

int64_t IndexMap::offset(std::span<const int64_t> coordinate) const {
  if (coordinate.size() != tables_.size())
    throw LayoutError("coordinate of rank " + std::to_string(coordinate.size()) + " for a tensor of rank " +
                      std::to_string(tables_.size()));
  int64_t result = 0;
  for (size_t a = 0; a < tables_.size(); ++a) {
    if (coordinate[a] < 0 || coordinate[a] >= logical_[a])
      throw LayoutError("coordinate " + std::to_string(coordinate[a]) + " out of range for axis " + std::to_string(a) +
                        " of extent " + std::to_string(logical_[a]));
    result += tables_[a][static_cast<size_t>(coordinate[a])];
  }
  return result;
}

}  // namespace layoutopt::layout
