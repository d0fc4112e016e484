#pragma once
// Operators exporters spell as elementwise arithmetic, recognized on the ONNX graph before
// conversion and rewritten as the ONNX operator they compute, so the converters (and the
// transposes around them) see one node:
//  - GELU, torch's exact form 0.5 * x * (1 + Erf(x / sqrt(2))) and its tanh approximation
//    0.5 * x * (1 + Tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))), in any operand order, as
//    Gelu (opset 20's operator, approximate "none" or "tanh");
//  - layer normalization as torch writes it below opset 17, ReduceMean(x) over the last axis,
//    Sub, Pow 2, ReduceMean, Add epsilon, Sqrt, Div, Mul scale, Add bias, as
//    LayerNormalization (axis -1).
// The node computing the result is rewritten in place; the nodes before it become dead
// unless something else reads them (then they still run, and may be refused by name).

#include "proto.h"

namespace layoutopt::graph::onnx {

struct RecognizedPatterns {
  int gelu = 0;
  int layer_norm = 0;
};

/// Rewrites every match; returns how many of each were found.
RecognizedPatterns recognize_patterns(pb::GraphProto& graph);

}  // namespace layoutopt::graph::onnx
