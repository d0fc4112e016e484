#include "window_attributes.h"

#include <algorithm>

namespace layoutopt::graph::onnx {

namespace {

Hw read_hw(const NodeContext& node, const std::string& name, Hw fallback) {
  const std::vector<int64_t> values = node.attributes().get_ints(name, {fallback.h, fallback.w});
  if (values.size() != 2)
    node.fail("attribute '" + name + "' has " + std::to_string(values.size()) +
              " values; only 2-D windows are supported");
  return {values[0], values[1]};
}

Hw read_kernel(const NodeContext& node, std::optional<Hw> kernel) {
  if (node.attributes().has("kernel_shape") || !kernel) {
    if (!node.attributes().has("kernel_shape")) node.fail("attribute 'kernel_shape' is required");
    return read_hw(node, "kernel_shape", {});
  }
  return *kernel;
}

Pads2d explicit_pads(const NodeContext& node) {
  const std::vector<int64_t> pads = node.attributes().get_ints("pads", {0, 0, 0, 0});
  if (pads.size() != 4)
    node.fail("attribute 'pads' has " + std::to_string(pads.size()) + " values; only 2-D windows are supported");
  // ONNX orders pads as [x1_begin, x2_begin, x1_end, x2_end].
  return {.top = pads[0], .left = pads[1], .bottom = pads[2], .right = pads[3]};
}

struct AxisPads {
  int64_t begin = 0, end = 0;
};

/// SAME padding keeps ceil(input / stride) outputs; an odd total goes to the end (UPPER) or
/// the beginning (LOWER).
AxisPads same_pads(int64_t input, int64_t kernel, int64_t stride, int64_t dilation, bool upper) {
  const int64_t output = (input + stride - 1) / stride;
  const int64_t total = std::max<int64_t>(0, (output - 1) * stride + (kernel - 1) * dilation + 1 - input);
  const int64_t smaller = total / 2;
  return upper ? AxisPads{smaller, total - smaller} : AxisPads{total - smaller, smaller};
}

Pads2d resolve_pads(const NodeContext& node, const Shape& input, const Window& window) {
  const std::string auto_pad = node.attributes().get_string("auto_pad", "NOTSET");
  if (auto_pad == "NOTSET") return explicit_pads(node);
  if (auto_pad == "VALID") return {};
  if (auto_pad != "SAME_UPPER" && auto_pad != "SAME_LOWER") node.fail("unknown auto_pad '" + auto_pad + "'");
  if (window.stride.h < 1 || window.stride.w < 1) node.fail("strides must be positive");
  const bool upper = auto_pad == "SAME_UPPER";
  const AxisPads h = same_pads(input[2], window.kernel.h, window.stride.h, window.dilation.h, upper);
  const AxisPads w = same_pads(input[3], window.kernel.w, window.stride.w, window.dilation.w, upper);
  return {.top = h.begin, .left = w.begin, .bottom = h.end, .right = w.end};
}

}  // namespace

Window read_window(const NodeContext& node, const Shape& input, std::optional<Hw> kernel) {
  Window window{.kernel = read_kernel(node, kernel),
                .stride = read_hw(node, "strides", {1, 1}),
                .dilation = read_hw(node, "dilations", {1, 1})};
  window.pads = resolve_pads(node, input, window);
  return window;
}

void expect_4d(const NodeContext& node, ValueId value, const std::string& why) {
  const Shape& shape = node.shape(value);
  if (shape.size() != 4) node.fail("input has shape " + to_string(shape) + "; " + why);
}

}  // namespace layoutopt::graph::onnx
