#include "layoutopt/layout/layout.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace layoutopt::layout {

namespace {

[[noreturn]] void fail(std::string_view text, const std::string& why) {
  throw LayoutError("invalid layout '" + std::string(text) + "': " + why);
}

}  // namespace

Layout Layout::parse(std::string_view text) {
  if (text.empty()) fail(text, "empty string");
  Layout result;
  int64_t pending = 0;  // digits read so far for the next sub-axis
  bool have_digits = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (std::isdigit(static_cast<unsigned char>(ch))) {
      pending = pending * 10 + (ch - '0');
      if (pending > (int64_t{1} << 30)) fail(text, "block size too large");
      have_digits = true;
      continue;
    }
    if (std::isupper(static_cast<unsigned char>(ch))) {
      if (have_digits) fail(text, "block size before primal axis '" + std::string(1, ch) + "'");
      for (const Axis& axis : result.axes_)
        if (axis.name == ch) fail(text, "axis '" + std::string(1, ch) + "' appears twice");
      result.axes_.push_back({ch, 0});
      continue;
    }
    if (std::islower(static_cast<unsigned char>(ch))) {
      if (!have_digits) fail(text, "sub-axis '" + std::string(1, ch) + "' needs a block size, e.g. 16" + ch);
      if (pending < 1) fail(text, "block size of '" + std::string(1, ch) + "' must be positive");
      result.axes_.push_back({ch, pending});
      pending = 0;
      have_digits = false;
      continue;
    }
    fail(text, "unexpected character '" + std::string(1, ch) + "' at position " + std::to_string(i));
  }
  if (have_digits) fail(text, "trailing block size without an axis");
  for (const Axis& axis : result.axes_) {
    if (axis.is_primal()) continue;
    const char primal = static_cast<char>(std::toupper(static_cast<unsigned char>(axis.name)));
    if (result.primal_axes().find(primal) == std::string::npos)
      fail(text, "sub-axis '" + std::string(1, axis.name) + "' has no primal axis '" + primal + "'");
  }
  return result;
}

Layout Layout::of_primal_axes(std::string_view names) {
  std::vector<Axis> axes;
  for (const char name : names) axes.push_back({name, 0});
  return Layout(std::move(axes));
}

Layout Layout::channel_blocked(size_t rank, int64_t block) {
  if (block < 0) throw LayoutError("channel block " + std::to_string(block) + " is negative");
  const Layout plain = canonical_data_layout(rank);
  return block <= 1 ? plain : plain.split('C', block);
}

Layout Layout::split(char axis, int64_t block) const {
  if (primal_axes().find(axis) == std::string::npos)
    throw LayoutError("layout " + str() + " has no axis '" + std::string(1, axis) + "' to split");
  if (block < 1 || block > (int64_t{1} << 30))  // the sizes parse accepts
    throw LayoutError("layout " + str() + ": block size " + std::to_string(block) + " of '" + std::string(1, axis) +
                      "' out of range");
  std::vector<Axis> axes = axes_;
  axes.push_back({static_cast<char>(std::tolower(static_cast<unsigned char>(axis))), block});
  return Layout(std::move(axes));
}

Layout Layout::permuted(std::span<const int64_t> perm) const {
  const auto rank = static_cast<int64_t>(axes_.size());
  if (static_cast<int64_t>(perm.size()) != rank)
    throw LayoutError("permutation of rank " + std::to_string(perm.size()) + " for layout " + str());
  std::vector<Axis> axes;
  std::vector<bool> taken(axes_.size(), false);
  for (const int64_t axis : perm) {
    if (axis < 0 || axis >= rank || taken[static_cast<size_t>(axis)])
      throw LayoutError("permutation of rank " + std::to_string(rank) + " names axis " + std::to_string(axis) +
                        (axis < 0 || axis >= rank ? " out of range" : " twice"));
    taken[static_cast<size_t>(axis)] = true;
    axes.push_back(axes_[static_cast<size_t>(axis)]);
  }
  return Layout(std::move(axes));
}

std::string Layout::str() const {
  std::ostringstream out;
  for (const Axis& axis : axes_) {
    if (!axis.is_primal()) out << axis.factor;
    out << axis.name;
  }
  return out.str();
}

std::string Layout::primal_axes() const {
  std::string result;
  for (const Axis& axis : axes_)
    if (axis.is_primal()) result += axis.name;
  return result;
}

int64_t Layout::block_of(char primal) const {
  const char sub = static_cast<char>(std::tolower(static_cast<unsigned char>(primal)));
  int64_t block = 1;
  for (const Axis& axis : axes_)
    if (axis.name == sub) block *= axis.factor;
  return block;
}

bool Layout::same_primal_axes(const Layout& other) const {
  std::string mine = primal_axes();
  std::string theirs = other.primal_axes();
  std::sort(mine.begin(), mine.end());
  std::sort(theirs.begin(), theirs.end());
  return mine == theirs;
}

std::vector<int64_t> Layout::physical_shape(std::span<const int64_t> logical,
                                            const Layout& canonical) const {
  const std::string canonical_axes = canonical.primal_axes();
  if (canonical_axes.size() != logical.size())
    throw LayoutError("shape of rank " + std::to_string(logical.size()) + " does not match layout " +
                      canonical.str());
  if (!same_primal_axes(canonical))
    throw LayoutError("layout " + str() + " does not have the axes of " + canonical.str());
  std::vector<int64_t> physical;
  physical.reserve(axes_.size());
  for (const Axis& axis : axes_) {
    if (!axis.is_primal()) {
      physical.push_back(axis.factor);
      continue;
    }
    const int64_t extent = logical[canonical_axes.find(axis.name)];
    const int64_t block = block_of(axis.name);
    if (extent % block != 0)
      throw LayoutError("layout " + str() + ": block " + std::to_string(block) + " does not divide axis " +
                        std::string(1, axis.name) + " of extent " + std::to_string(extent));
    physical.push_back(extent / block);
  }
  return physical;
}

void Layout::check_fits(std::span<const int64_t> logical, const Layout& canonical) const {
  (void)physical_shape(logical, canonical);
}

Layout canonical_data_layout(size_t rank) {
  switch (rank) {
    case 2: return Layout::nc();
    case 3: return Layout::ncw();
    case 4: return Layout::nchw();
    case 5: return Layout::ncdhw();
    case 6: return Layout::nctdhw();
    default: throw LayoutError("no canonical data layout for rank " + std::to_string(rank));
  }
}

Layout transposed_layout(std::span<const int64_t> perm) {
  const Layout canonical = canonical_data_layout(perm.size());
  try {
    return canonical.permuted(perm);
  } catch (const LayoutError& e) {
    throw LayoutError(std::string("transpose ") + e.what());
  }
}

}  // namespace layoutopt::layout
