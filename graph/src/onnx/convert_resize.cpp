// Resize (and Upsample, which opset_adapter rewrites into Resize) of the spatial axes of an
// NCHW tensor, nearest or bilinear, with the coordinate modes PyTorch exports.
#include <cmath>

#include "converters.h"
#include "window_attributes.h"

namespace layoutopt::graph::onnx {

namespace {

/// Largest output extent a Resize may ask for; far beyond any image, small enough that
/// the sizes of a batch of them still multiply within int64.
constexpr int64_t kMaxResizedExtent = int64_t{1} << 24;

ResizeMode read_mode(const NodeContext& node) {
  const std::string mode = node.attributes().get_string("mode", "nearest");
  if (mode == "nearest") return ResizeMode::nearest;
  if (mode == "linear" || mode == "bilinear") return ResizeMode::linear;
  node.fail("mode '" + mode + "' is not supported (nearest and linear are)");
}

ResizeCoordinates read_coordinates(const NodeContext& node) {
  const std::string mode = node.attributes().get_string("coordinate_transformation_mode", "half_pixel");
  if (mode == "half_pixel") return ResizeCoordinates::half_pixel;
  if (mode == "pytorch_half_pixel") return ResizeCoordinates::pytorch_half_pixel;
  if (mode == "align_corners") return ResizeCoordinates::align_corners;
  if (mode == "asymmetric") return ResizeCoordinates::asymmetric;
  node.fail("coordinate_transformation_mode '" + mode + "' is not supported");
}

NearestRounding read_rounding(const NodeContext& node) {
  const std::string mode = node.attributes().get_string("nearest_mode", "round_prefer_floor");
  if (mode == "round_prefer_floor") return NearestRounding::round_prefer_floor;
  if (mode == "round_prefer_ceil") return NearestRounding::round_prefer_ceil;
  if (mode == "floor") return NearestRounding::floor;
  if (mode == "ceil") return NearestRounding::ceil;
  node.fail("nearest_mode '" + mode + "' is not supported");
}

/// A given input with at least one element (exporters pass empty tensors for "absent").
bool given(const NodeContext& node, size_t slot) {
  return node.has_input(slot) && (node.is_constant(slot) ? !node.constant_floats(slot).empty() : true);
}

/// Per-axis factors over N, C, H, W; N and C must stay as they are.
std::vector<double> axis_factors(const NodeContext& node, const std::vector<double>& factors, const char* what) {
  if (factors.size() != 4) node.fail(std::string(what) + " has " + std::to_string(factors.size()) + " values, expected 4 (NCHW)");
  if (factors[0] != 1.0 || factors[1] != 1.0) node.fail("only the spatial axes can be resized, " + std::string(what) + " ask for more");
  return factors;
}

/// floor(extent * factor) for a spatial axis. Factors come from the file: a non-finite,
/// non-positive or vast factor fails here (the cast of such a double to int64 is undefined).
int64_t scaled_extent(const NodeContext& node, int64_t extent, double factor, const char* axis) {
  const double scaled = std::floor(static_cast<double>(extent) * factor);
  if (!(factor > 0 && scaled >= 1 && scaled <= static_cast<double>(kMaxResizedExtent)))
    node.fail(std::string("scale ") + std::to_string(factor) + " of axis " + axis + " (extent " + std::to_string(extent) +
              ") gives no usable output extent (1 to " + std::to_string(kMaxResizedExtent) + ")");
  return static_cast<int64_t>(scaled);
}

}  // namespace

ValueId convert_resize(NodeContext& node) {
  const ValueId x = node.input(0);
  expect_4d(node, x, "only NCHW tensors can be resized");
  const Shape& in = node.shape(x);
  const AttributeReader& attributes = node.attributes();
  if (attributes.get_int("antialias", 0) != 0) node.fail("antialias=1 is not supported");
  if (attributes.has("axes")) node.fail("the axes attribute is not supported");
  Resize resize{.mode = read_mode(node), .coordinates = read_coordinates(node), .rounding = read_rounding(node)};
  if (given(node, 3)) {
    const std::vector<int64_t> sizes = node.constant_ints(3);
    std::vector<double> ratio;
    for (size_t d = 0; d < sizes.size() && d < in.size(); ++d) ratio.push_back(static_cast<double>(sizes[d]) / static_cast<double>(in[d]));
    if (sizes.size() != 4) node.fail("sizes has " + std::to_string(sizes.size()) + " values, expected 4 (NCHW)");
    (void)axis_factors(node, ratio, "sizes");
    for (size_t d = 2; d < 4; ++d)
      if (sizes[d] < 1 || sizes[d] > kMaxResizedExtent)
        node.fail("sizes asks for extent " + std::to_string(sizes[d]) + " (expected 1 to " + std::to_string(kMaxResizedExtent) + ")");
    resize.size = {sizes[2], sizes[3]};
    resize.scale_h = ratio[2];
    resize.scale_w = ratio[3];
  } else if (given(node, 2)) {
    const std::vector<float> scales = node.constant_floats(2);
    const std::vector<double> factors = axis_factors(node, {scales.begin(), scales.end()}, "scales");
    resize.size = {scaled_extent(node, in[2], factors[2], "H"), scaled_extent(node, in[3], factors[3], "W")};
    resize.scale_h = factors[2];
    resize.scale_w = factors[3];
  } else {
    node.fail("neither scales nor sizes is given");
  }
  return node.add(resize, {x});
}

}  // namespace layoutopt::graph::onnx
