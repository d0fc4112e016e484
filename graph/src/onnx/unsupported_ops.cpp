#include "unsupported_ops.h"

#include <map>
#include <string>
#include <vector>

#include "layoutopt/graph/error.h"
#include "node_naming.h"
#include "op_converters.h"

namespace layoutopt::graph::onnx {

namespace {

bool supported(const pb::NodeProto& node, size_t index, const ConstantTable& constants) {
  if (constants.folded(index)) return true;
  return in_default_domain(node) && find_converter(node.op_type()) != nullptr;
}

/// "com.microsoft.FusedConv" for other domains, plain op type for the default one.
std::string qualified_op_type(const pb::NodeProto& node) {
  return in_default_domain(node) ? node.op_type() : node.domain() + "." + node.op_type();
}

}  // namespace

void check_supported_ops(const pb::GraphProto& graph, const ConstantTable& constants) {
  std::map<std::string, std::vector<std::string>> unsupported;  // sorted by op type
  for (int i = 0; i < graph.node_size(); ++i) {
    const pb::NodeProto& node = graph.node(i);
    if (!supported(node, static_cast<size_t>(i), constants))
      unsupported[qualified_op_type(node)].push_back(display_name(node, static_cast<size_t>(i)));
  }
  if (unsupported.empty()) return;
  std::string message = "unsupported operators: ";
  for (auto it = unsupported.begin(); it != unsupported.end(); ++it) {
    message += (it == unsupported.begin() ? "" : ", ") + it->first + " (nodes: ";
    for (size_t n = 0; n < it->second.size(); ++n) message += (n ? ", " : "") + it->second[n];
    message += ")";
  }
  throw GraphError(message);
}

}  // namespace layoutopt::graph::onnx
