#include "unsupported_ops.h"

#include <map>
#include <string>
#include <vector>

#include "constant_folding.h"
#include "import_context.h"
#include "layoutopt/graph/error.h"
#include "node_naming.h"
#include "op_converters.h"

namespace layoutopt::graph::onnx {

namespace {

bool supported(const pb::NodeProto& node) {
  return in_default_domain(node) && (find_converter(node.op_type()) || find_fold_rule(node.op_type()));
}

/// "com.microsoft.FusedConv" for other domains, plain op type for the default one.
std::string qualified_op_type(const pb::NodeProto& node) {
  return in_default_domain(node) ? node.op_type() : node.domain() + "." + node.op_type();
}

}  // namespace

void check_supported_ops(const pb::GraphProto& graph) {
  std::map<std::string, std::vector<std::string>> unsupported;  // sorted by op type
  for (int i = 0; i < graph.node_size(); ++i) {
    const pb::NodeProto& node = graph.node(i);
    if (!supported(node)) unsupported[qualified_op_type(node)].push_back(display_name(node, static_cast<size_t>(i)));
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

std::string uncomputed_input_message(ImportContext& context, const pb::NodeProto& node) {
  for (int slot = 0; slot < node.input_size(); ++slot) {
    const std::string& name = node.input(slot);
    if (!name.empty() && !context.constants().contains(name))
      return "input " + std::to_string(slot) + " '" + name + "' is computed by the network, but " + node.op_type() +
             " is only supported where it can be evaluated at import (on constants and shapes)";
  }
  return node.op_type() + " could not be evaluated at import";
}

}  // namespace layoutopt::graph::onnx
