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

Layout Layout::nchwc(int64_t block) { return parse("NCHW" + std::to_string(block) + "c"); }

Layout Layout::oihwio(int64_t in_block, int64_t out_block) {
  return parse("OIHW" + std::to_string(in_block) + "i" + std::to_string(out_block) + "o");
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
    case 2: return Layout::parse("NC");
    case 3: return Layout::parse("NCW");
    case 4: return Layout::nchw();
    default: throw LayoutError("no canonical data layout for rank " + std::to_string(rank));
  }
}

Layout transposed_layout(std::span<const int64_t> perm) {
  const std::string axes = canonical_data_layout(perm.size()).primal_axes();
  std::string permuted;
  for (const int64_t axis : perm) {
    if (axis < 0 || axis >= static_cast<int64_t>(axes.size()) || permuted.find(axes[static_cast<size_t>(axis)]) != std::string::npos)
      throw LayoutError("transpose permutation of rank " + std::to_string(perm.size()) + " names axis " +
                        std::to_string(axis) + (axis < 0 || axis >= static_cast<int64_t>(axes.size()) ? " out of range" : " twice"));
    permuted += axes[static_cast<size_t>(axis)];
  }
  return Layout::parse(permuted);
}

}  // namespace layoutopt::layout
