#pragma once
// The window of a Conv or pooling node: kernel, strides, dilations and padding, with
// auto_pad (SAME_UPPER, SAME_LOWER, VALID) resolved to explicit pads for the input's size.

#include <optional>
#include <string>

#include "import_context.h"
#include "layoutopt/graph/ops.h"

namespace layoutopt::graph::onnx {

struct Window {
  Hw kernel, stride, dilation;
  Pads2d pads;
};

/// Reads the window attributes of `node` over the 4-D input shape `input`. `kernel` is the
/// size to use when the node has no kernel_shape (a conv's weight gives it); without it the
/// attribute is required.
[[nodiscard]] Window read_window(const NodeContext& node, const Shape& input, std::optional<Hw> kernel);

/// Fails with `why` unless `value` is 4-D (NCHW): 1-D and 3-D windows are not supported.
void expect_4d(const NodeContext& node, ValueId value, const std::string& why);

}  // namespace layoutopt::graph::onnx
