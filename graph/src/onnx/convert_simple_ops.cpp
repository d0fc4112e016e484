// Converters for the operators without windows or weights matrices: batch norm, clip,
// concat, flatten, reshape, softmax and dropout.
#include <algorithm>
#include <limits>

#include "converters.h"

namespace layoutopt::graph::onnx {

ValueId convert_batch_norm(NodeContext& node) {
  const AttributeReader& attributes = node.attributes();
  if (attributes.get_int("training_mode", 0) != 0)
    node.fail("training_mode=1 is not supported; export the model in eval mode");
  return node.add(BatchNorm{.epsilon = attributes.get_float("epsilon", 1e-5f)},
                  {node.input(0), node.weight(1), node.weight(2), node.weight(3), node.weight(4)});
}

// The bounds are optional inputs (opset_adapter moves the pre-11 attributes there).
ValueId convert_clip(NodeContext& node) {
  constexpr float infinity = std::numeric_limits<float>::infinity();
  const float min = node.has_input(1) ? node.constant_scalar(1) : -infinity;
  const float max = node.has_input(2) ? node.constant_scalar(2) : infinity;
  return node.add(Clip{.min = min, .max = max}, {node.input(0)});
}

ValueId convert_concat(NodeContext& node) {
  if (!node.attributes().has("axis")) node.fail("attribute 'axis' is required");
  std::vector<ValueId> inputs;
  for (size_t slot = 0; slot < node.input_count(); ++slot) inputs.push_back(node.input(slot));
  return node.add(Concat{.axis = node.attributes().get_int("axis", 1)}, std::move(inputs));
}

ValueId convert_flatten(NodeContext& node) {
  return node.add(Flatten{.axis = node.attributes().get_int("axis", 1)}, {node.input(0)});
}

ValueId convert_reshape(NodeContext& node) {
  std::vector<int64_t> shape = node.constant_ints(1);
  // allowzero=1 makes 0 a real zero-sized dimension instead of "copy the input's".
  if (node.attributes().get_int("allowzero", 0) != 0 && std::find(shape.begin(), shape.end(), 0) != shape.end())
    node.fail("allowzero=1 with a zero in the shape is not supported");
  return node.add(Reshape{.shape = std::move(shape)}, {node.input(0)});
}

ValueId convert_softmax(NodeContext& node) {
  const ValueId x = node.input(0);
  const auto rank = static_cast<int64_t>(node.shape(x).size());
  // Before opset 13 the default axis was 1 and softmax ran over everything from the axis
  // on; that agrees with the IR's per-axis softmax only when the axis is the last one.
  const int64_t axis = node.attributes().get_int("axis", node.opset() < 13 ? 1 : -1);
  if (node.opset() < 13 && (axis < 0 ? axis + rank : axis) != rank - 1)
    node.fail("softmax over the flattened axes " + std::to_string(axis) + ".. of a rank-" + std::to_string(rank) +
              " input (opset < 13) is not supported");
  return node.add(Softmax{.axis = axis}, {x});
}

// Opset 11 gives the ratio as an attribute, 12+ as an optional input. Training mode drops
// nothing at ratio 0 (torchvision's swin exports its attention dropout so).
ValueId convert_dropout(NodeContext& node) {
  const float ratio = node.has_input(1) ? node.constant_scalar(1) : node.attributes().get_float("ratio", 0.5f);
  if (node.has_input(2) && node.constant_flag(2) && ratio != 0.0f)
    node.fail("training_mode=true with ratio " + std::to_string(ratio) + " is not supported");
  return node.add(Dropout{.ratio = ratio}, {node.input(0)});
}

}  // namespace layoutopt::graph::onnx
