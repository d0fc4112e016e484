#pragma once
// How ONNX nodes are named in messages and in the imported graph. Node names are optional
// in ONNX; unnamed nodes are called after their operator and position ("Relu_12").

#include <cstddef>
#include <string>

#include "proto.h"

namespace layoutopt::graph::onnx {

/// The node's name, or "<op_type>_<index>" when it has none.
[[nodiscard]] std::string display_name(const pb::NodeProto& node, size_t index);

/// "node '<display name>' (<op_type>)", the prefix of every message about a node.
[[nodiscard]] std::string node_label(const pb::NodeProto& node, size_t index);

}  // namespace layoutopt::graph::onnx
