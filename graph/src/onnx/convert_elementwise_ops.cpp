// Converters for elementwise operators with attributes or a variable input count:
// HardSigmoid, LeakyRelu, PRelu, Cast, and Sum / Max / Min (chains of the binary IR op).
#include "converters.h"

namespace layoutopt::graph::onnx {

ValueId convert_hard_sigmoid(NodeContext& node) {
  const AttributeReader& attributes = node.attributes();
  return node.add(HardSigmoid{.alpha = attributes.get_float("alpha", 0.2f), .beta = attributes.get_float("beta", 0.5f)},
                  {node.input(0)});
}

ValueId convert_leaky_relu(NodeContext& node) {
  return node.add(LeakyRelu{.alpha = node.attributes().get_float("alpha", 0.01f)}, {node.input(0)});
}

ValueId convert_prelu(NodeContext& node) { return node.add(PRelu{}, {node.input(0), node.weight(1)}); }

// Exporters cast float activations to float around mixed-precision regions; anything else
// would change the element type, which the IR does not have.
ValueId convert_cast(NodeContext& node) {
  const int64_t to = node.attributes().get_int("to", 0);
  if (to != pb::TensorProto::FLOAT)
    node.fail("cast of an activation to " + pb::TensorProto::DataType_Name(static_cast<pb::TensorProto::DataType>(to)) +
              " is not supported (activations are float32)");
  return node.add(Identity{}, {node.input(0)});
}

}  // namespace layoutopt::graph::onnx
