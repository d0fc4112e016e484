#pragma once
// The table of supported ONNX operators: for each op type, the function that converts one
// node into IR nodes and the facts the importer needs before converting anything (how many
// inputs the op takes, which of them are weights). The converters live in convert_*.cpp.

#include <cstddef>
#include <string_view>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/graph/weight_init.h"

namespace layoutopt::graph::onnx {

class NodeContext;

/// Converts the node to IR nodes and returns the value of its (first) output.
using ConvertFn = ValueId (*)(NodeContext& node);

/// An input that holds a weight rather than an activation; in files exported without
/// weights it is a graph input that gets seeded values of this role.
struct WeightSlot {
  size_t input = 0;
  ParameterRole role = ParameterRole::conv_weight;
};

struct OpConverter {
  ConvertFn convert = nullptr;
  size_t min_inputs = 1;
  size_t max_inputs = 1;
  std::vector<WeightSlot> weights;
  /// The converter binds every output itself (Split); otherwise only the first may be read.
  bool all_outputs = false;
};

/// The converter for an op type of the default domain, or null when it is unsupported.
[[nodiscard]] const OpConverter* find_converter(std::string_view op_type);

}  // namespace layoutopt::graph::onnx
