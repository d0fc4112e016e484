#pragma once
#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

/// Replaces an activation that PyTorch exports as its input gated by a function of itself,
///   Mul(x, Sigmoid(x))                       -> Silu(x)       (EfficientNet's SiLU)
///   Mul(x, HardSigmoid{1/6, 1/2}(x))         -> HardSwish(x)  (hardswish below opset 14)
/// with either Mul operand order, when the gate is read by the Mul alone and is not a graph
/// output. The new node keeps the Mul's name and output value, so its readers are unchanged.
/// Returns how many pairs were replaced.
///
/// Why: as one unary node the activation fuses into the conv before it (fuse_epilogues),
/// where the pair would cost two more passes over the conv's output.
int recognize_gated_activations(Graph& graph);

}  // namespace layoutopt::graph
