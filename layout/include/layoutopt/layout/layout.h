#pragma once
// Layout algebra: a tensor layout is a sequence of axes, as in TVM's layout strings.
//
//   "NCHW"      four primal axes, outermost first
//   "NCHW16c"   channel axis C split: an outer C/16 axis and an inner 16-wide c axis
//   "OIHW4i16o" weight layout with input- and output-channel blocks
//   "NHWC", "NC", "NC16c"
//
// Uppercase letters are primal (logical) axes; a number followed by the lowercase letter
// of a primal axis is a sub-axis of that fixed size, nested inside the primal axis. The
// logical shape of a tensor is always given in its canonical order (NCHW for activations,
// OIHW for conv weights, NC for 2-D); the layout decides only the physical order.

#include <compare>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace layoutopt::layout {

/// Raised for malformed layout strings and for blockings that do not fit a shape.
class LayoutError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One physical axis: either primal ('C', factor 0) or a sub-axis ('c', factor 16).
struct Axis {
  char name = 0;
  int64_t factor = 0;  ///< 0 for a primal axis, the block size for a sub-axis
  [[nodiscard]] bool is_primal() const { return factor == 0; }
  auto operator<=>(const Axis&) const = default;
};

class Layout {
 public:
  Layout() = default;
  /// Parses a layout string; throws LayoutError naming the offending character. For the
  /// readers of files and command lines: code builds layouts with the factories below.
  static Layout parse(std::string_view text);

  static Layout nchw() { return of_primal_axes("NCHW"); }
  static Layout nhwc() { return of_primal_axes("NHWC"); }
  static Layout nc() { return of_primal_axes("NC"); }
  static Layout ncw() { return of_primal_axes("NCW"); }
  /// Rank 5 and 6 take letters no other canonical layout uses (D depth, T time), so a
  /// layout's primal axes name its rank and 'C' stays the one blockable channel axis.
  static Layout ncdhw() { return of_primal_axes("NCDHW"); }
  static Layout nctdhw() { return of_primal_axes("NCTDHW"); }
  static Layout oihw() { return of_primal_axes("OIHW"); }
  static Layout oi() { return of_primal_axes("OI"); }
  /// "NCHW16c"; a block of 1 is spelled too ("NCHW1c"), as kernels report their layouts.
  static Layout nchwc(int64_t block) { return nchw().split('C', block); }
  /// "OIHW4i16o"; blocks of 1 are spelled too ("OIHW1i16o").
  static Layout oihwio(int64_t in_block, int64_t out_block) { return oihw().split('I', in_block).split('O', out_block); }
  /// canonical_data_layout(rank) with its channels in blocks of `block` ("NC16c", "NCW8c",
  /// "NCHW16c", "NCDHW8c"); a block of 0 or 1 gives the plain layout, the one spelling of its memory
  /// order the planner and the transform table use. Throws LayoutError for a rank
  /// canonical_data_layout does not know or a negative block.
  static Layout channel_blocked(size_t rank, int64_t block);

  /// This layout with a new innermost sub-axis of `block` elements of primal axis `axis`
  /// ('C' -> "...16c"). Throws LayoutError when the layout has no such primal axis or the block
  /// is not positive.
  [[nodiscard]] Layout split(char axis, int64_t block) const;
  /// The axes taken in `perm`'s order (axis i of the result is axis perm[i] of this layout).
  /// Throws LayoutError when perm is not a permutation of the axes.
  [[nodiscard]] Layout permuted(std::span<const int64_t> perm) const;

  [[nodiscard]] const std::vector<Axis>& axes() const { return axes_; }
  [[nodiscard]] std::string str() const;
  [[nodiscard]] bool empty() const { return axes_.empty(); }

  /// Primal axes in physical order ("NCHW16c" -> "NCHW", "NHWC" -> "NHWC").
  [[nodiscard]] std::string primal_axes() const;
  /// Product of all sub-axis factors of a primal axis (1 when it is not split).
  [[nodiscard]] int64_t block_of(char primal) const;
  /// True when both layouts describe the same primal axes (possibly ordered or blocked differently).
  [[nodiscard]] bool same_primal_axes(const Layout& other) const;

  /// Physical shape of a tensor whose logical shape is given in `canonical` order, e.g.
  /// physical_shape({1,64,56,56}, NCHW) for NCHW16c is {1,4,56,56,16}. Throws LayoutError
  /// when a block does not divide its axis or the axes do not match.
  [[nodiscard]] std::vector<int64_t> physical_shape(std::span<const int64_t> logical,
                                                    const Layout& canonical) const;
  /// Throws LayoutError unless physical_shape would succeed.
  void check_fits(std::span<const int64_t> logical, const Layout& canonical) const;

  /// Axes compared in physical order: an order for sets and map keys, not a size order.
  auto operator<=>(const Layout&) const = default;

 private:
  explicit Layout(std::vector<Axis> axes) : axes_(std::move(axes)) {}
  /// Primal axes only, outermost first: the constant layouts above, without parsing text.
  static Layout of_primal_axes(std::string_view names);
  std::vector<Axis> axes_;
};

/// Canonical (logical) layout for a tensor of the given rank: NC, NCW, NCHW, NCDHW, NCTDHW.
Layout canonical_data_layout(size_t rank);

/// The layout in which a tensor's memory is its transpose by `perm` (ONNX Transpose: output
/// axis i is input axis perm[i]) in canonical order: the canonical axes taken in perm's
/// order, e.g. NHWC for (0, 2, 3, 1). So a transpose is a layout change of its input. Throws
/// LayoutError when perm is not a permutation of a rank canonical_data_layout knows.
Layout transposed_layout(std::span<const int64_t> perm);

}  // namespace layoutopt::layout
