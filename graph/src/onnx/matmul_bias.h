#pragma once
// MatMul followed by an Add of a bias vector is how exporters write a dense layer without
// Gemm; the pair becomes one IR dense node with a bias, so later passes see the same graph
// as for Gemm.

#include <cstddef>
#include <string>
#include <unordered_map>

#include "constant_table.h"
#include "proto.h"

namespace layoutopt::graph::onnx {

struct BiasFusion {
  size_t add_node = 0;  ///< index of the Add merged into the MatMul
  std::string bias;     ///< the tensor added
};

/// MatMul nodes (by index) whose output feeds only one Add, whose other operand is a rank-1
/// constant or a rank-1 graph input (a bias in a file exported without weights).
[[nodiscard]] std::unordered_map<size_t, BiasFusion> plan_bias_fusions(const pb::GraphProto& graph,
                                                                       const ConstantTable& constants);

}  // namespace layoutopt::graph::onnx
