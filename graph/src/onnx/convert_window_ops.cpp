// Converters for Conv, ConvTranspose, MaxPool, AveragePool, Pad and LRN.
#include <array>

#include "converters.h"
#include "window_attributes.h"

namespace layoutopt::graph::onnx {

namespace {

ValueId convert_pool(NodeContext& node, PoolKind kind) {
  const ValueId x = node.input(0);
  expect_4d(node, x, "only 2-D pooling over NCHW tensors is supported");
  const Window window = read_window(node, node.shape(x), std::nullopt);
  if (window.dilation != Hw{1, 1}) node.fail("dilated pooling is not supported");
  const AttributeReader& attributes = node.attributes();
  if (attributes.get_int("storage_order", 0) != 0) node.fail("column-major storage_order is not supported");
  return node.add(Pool2d{.kind = kind,
                         .kernel = window.kernel,
                         .stride = window.stride,
                         .pads = window.pads,
                         .ceil_mode = attributes.get_int("ceil_mode", 0) != 0,
                         .count_include_pad = attributes.get_int("count_include_pad", 0) != 0},
                  {x});
}

/// Input 1 as the 4-D filter of a (transposed) convolution; `expected` says which layout.
ValueId filter_weight(const NodeContext& node, const std::string& expected) {
  const ValueId w = node.weight(1);
  const Shape& shape = node.shape(w);
  if (shape.size() != 4) node.fail("weight has shape " + to_string(shape) + "; " + expected);
  return w;
}

/// Pad's axes input (opset 18), normalized; all axes when absent.
std::vector<int64_t> pad_axes(const NodeContext& node) {
  if (!node.has_input(3)) return {0, 1, 2, 3};
  std::vector<int64_t> axes = node.constant_ints(3);
  for (int64_t& axis : axes) {
    if (axis < -4 || axis > 3) node.fail("axis " + std::to_string(axis) + " is out of range for a 4-D input");
    if (axis < 0) axis += 4;
  }
  return axes;
}

}  // namespace

ValueId convert_conv(NodeContext& node) {
  const ValueId x = node.input(0);
  expect_4d(node, x, "only 2-D convolutions over NCHW tensors are supported");
  const ValueId w = filter_weight(node, "only 2-D convolutions ([out, in/groups, kh, kw]) are supported");
  const Shape& w_shape = node.shape(w);
  const Window window = read_window(node, node.shape(x), Hw{w_shape[2], w_shape[3]});
  const bool bias = node.has_input(2);
  const Conv2d conv{.kernel = window.kernel,
                    .stride = window.stride,
                    .dilation = window.dilation,
                    .pads = window.pads,
                    .groups = node.attributes().get_int("group", 1),
                    .epilogue = {.bias = bias}};
  if (bias) return node.add(conv, {x, w, node.weight(2)});
  return node.add(conv, {x, w});
}

namespace {

/// ConvTranspose's pads: explicit, or derived from output_shape / auto_pad the way the ONNX
/// spec gives them (total = stride * (in - 1) + output_padding + effective kernel - out).
Pads2d transposed_pads(const NodeContext& node, const Shape& in, const Window& window, Hw output_padding) {
  const AttributeReader& attributes = node.attributes();
  const std::string auto_pad = attributes.get_string("auto_pad", "NOTSET");
  if (!attributes.has("output_shape") && (auto_pad == "NOTSET" || auto_pad == "VALID")) return window.pads;
  std::vector<int64_t> out = attributes.get_ints("output_shape", {in[2] * window.stride.h, in[3] * window.stride.w});
  if (out.size() > 2) out.erase(out.begin(), out.end() - 2);
  const auto total = [](int64_t input, int64_t stride, int64_t pad_out, int64_t kernel, int64_t dilation, int64_t extent) {
    return stride * (input - 1) + pad_out + (kernel - 1) * dilation + 1 - extent;
  };
  const int64_t th = total(in[2], window.stride.h, output_padding.h, window.kernel.h, window.dilation.h, out[0]);
  const int64_t tw = total(in[3], window.stride.w, output_padding.w, window.kernel.w, window.dilation.w, out[1]);
  if (th < 0 || tw < 0) node.fail("output_shape " + to_string(out) + " is larger than the transposed convolution can make");
  // SAME_UPPER puts the odd pixel at the end of the output, i.e. removes less at the end.
  const bool upper = auto_pad != "SAME_LOWER";
  const auto begin = [&](int64_t t) { return upper ? t / 2 : t - t / 2; };
  return {.top = begin(th), .left = begin(tw), .bottom = th - begin(th), .right = tw - begin(tw)};
}

}  // namespace

ValueId convert_conv_transpose(NodeContext& node) {
  const ValueId x = node.input(0);
  expect_4d(node, x, "only 2-D transposed convolutions over NCHW tensors are supported");
  const ValueId w = filter_weight(node, "expected [in, out/groups, kh, kw]");
  const Shape& w_shape = node.shape(w);
  // read_window resolves auto_pad for a forward window; ConvTranspose's is resolved below.
  Window window = read_window(node, node.shape(x), Hw{w_shape[2], w_shape[3]});
  const std::vector<int64_t> extra = node.attributes().get_ints("output_padding", {0, 0});
  if (extra.size() != 2) node.fail("attribute 'output_padding' must have 2 values");
  const Hw output_padding{extra[0], extra[1]};
  window.pads = transposed_pads(node, node.shape(x), window, output_padding);
  const bool bias = node.has_input(2);
  const ConvTranspose2d op{.kernel = window.kernel,
                           .stride = window.stride,
                           .dilation = window.dilation,
                           .pads = window.pads,
                           .output_padding = output_padding,
                           .groups = node.attributes().get_int("group", 1),
                           .bias = bias};
  if (bias) return node.add(op, {x, w, node.weight(2)});
  return node.add(op, {x, w});
}

ValueId convert_lrn(NodeContext& node) {
  const AttributeReader& attributes = node.attributes();
  if (!attributes.has("size")) node.fail("attribute 'size' is required");
  const ValueId x = node.input(0);
  expect_4d(node, x, "only NCHW tensors are supported");
  return node.add(Lrn{.size = attributes.get_int("size", 1),
                      .alpha = attributes.get_float("alpha", 1e-4f),
                      .beta = attributes.get_float("beta", 0.75f),
                      .bias = attributes.get_float("bias", 1.0f)},
                  {x});
}

ValueId convert_max_pool(NodeContext& node) { return convert_pool(node, PoolKind::max); }

ValueId convert_average_pool(NodeContext& node) { return convert_pool(node, PoolKind::avg); }

ValueId convert_pad(NodeContext& node) {
  const std::string mode = node.attributes().get_string("mode", "constant");
  if (mode != "constant") node.fail("mode '" + mode + "' is not supported (only constant padding)");
  const ValueId x = node.input(0);
  expect_4d(node, x, "only NCHW tensors can be padded");
  const std::vector<int64_t> pads = node.constant_ints(1);
  const std::vector<int64_t> axes = pad_axes(node);
  if (pads.size() != 2 * axes.size())
    node.fail("pads has " + std::to_string(pads.size()) + " values, expected " + std::to_string(2 * axes.size()));
  std::array<int64_t, 4> begin{}, end{};
  for (size_t i = 0; i < axes.size(); ++i) {
    begin[static_cast<size_t>(axes[i])] = pads[i];
    end[static_cast<size_t>(axes[i])] = pads[i + axes.size()];
  }
  if (begin[0] != 0 || begin[1] != 0 || end[0] != 0 || end[1] != 0)
    node.fail("pads " + to_string(pads) + " pad the batch or channel axis; only spatial padding is supported");
  const float value = node.has_input(2) ? node.constant_scalar(2) : 0.0f;
  return node.add(Pad{.pads = {.top = begin[2], .left = begin[3], .bottom = end[2], .right = end[3]}, .value = value},
                  {x});
}

}  // namespace layoutopt::graph::onnx
