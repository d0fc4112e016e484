#pragma once
// The ONNX protobuf classes. Inside layoutopt::graph::onnx the name `onnx` means our own
// namespace, so the generated classes are always spelled pb::ModelProto and so on.

#include <onnx/onnx_pb.h>

namespace layoutopt::graph::onnx {

namespace pb = ::onnx;

/// True for nodes of the default operator set (domain "" or "ai.onnx"), the only one we read.
[[nodiscard]] inline bool in_default_domain(const pb::NodeProto& node) {
  return node.domain().empty() || node.domain() == "ai.onnx";
}

}  // namespace layoutopt::graph::onnx
