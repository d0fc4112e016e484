#include "node_naming.h"

namespace layoutopt::graph::onnx {

std::string display_name(const pb::NodeProto& node, size_t index) {
  return node.name().empty() ? node.op_type() + "_" + std::to_string(index) : node.name();
}

std::string node_label(const pb::NodeProto& node, size_t index) {
  return "node '" + display_name(node, index) + "' (" + node.op_type() + ")";
}

}  // namespace layoutopt::graph::onnx
