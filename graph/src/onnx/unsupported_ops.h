#pragma once
// Checks up front that every node can be imported, so one error lists everything a user
// would need (or need to remove) instead of failing at the first unsupported node.

#include "constant_table.h"
#include "proto.h"

namespace layoutopt::graph::onnx {

/// Throws GraphError naming every unsupported op type and its nodes, e.g.
/// "unsupported operators: LSTM (nodes: lstm_1), Resize (nodes: up1, up2)".
void check_supported_ops(const pb::GraphProto& graph, const ConstantTable& constants);

}  // namespace layoutopt::graph::onnx
