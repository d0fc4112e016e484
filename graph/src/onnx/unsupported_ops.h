#pragma once
// Checks up front that every node can be imported, so one error lists everything a user
// would need (or need to remove) instead of failing at the first unsupported node; and the
// message for a node that can only be evaluated at import but reads an activation.

#include <string>

#include "proto.h"

namespace layoutopt::graph::onnx {

class ImportContext;

/// Throws GraphError naming every op type that has neither a converter nor a fold rule, and
/// its nodes, e.g. "unsupported operators: LSTM (nodes: lstm_1), NonZero (nodes: nz)".
void check_supported_ops(const pb::GraphProto& graph);

/// For a node with a fold rule but no converter whose inputs are not all known: names the
/// first input the network computes.
[[nodiscard]] std::string uncomputed_input_message(ImportContext& context, const pb::NodeProto& node);

}  // namespace layoutopt::graph::onnx
