#include "layoutopt/graph/passes/recognize_gated_activations.h"

#include <optional>

#include "readers.h"

namespace layoutopt::graph {

namespace {

/// A Mul that gates `x` by `gate`, a node computing a function of `x`.
struct GatedActivation {
  NodeId gate = kNoProducer;
  ValueId x = -1;
};

/// The activation that x * gate(x) is, for the gates that have one; hard sigmoid with
/// PyTorch's coefficients only, as x * hard_sigmoid(x) is hard swish for those alone.
std::optional<Op> gated_activation(const Op& gate) {
  if (std::holds_alternative<Sigmoid>(gate)) return Silu{};
  if (const auto* hard = std::get_if<HardSigmoid>(&gate); hard && hard->alpha == 1.0f / 6.0f && hard->beta == 0.5f)
    return HardSwish{};
  return std::nullopt;
}

/// The gate of `mul` when one operand is produced by a gate node reading the other operand.
std::optional<GatedActivation> match_gate(const Graph& graph, const Node& mul) {
  if (!std::holds_alternative<Mul>(mul.op)) return std::nullopt;
  for (const size_t gate_operand : {size_t{0}, size_t{1}}) {
    const NodeId gate = graph.value(mul.inputs[gate_operand]).producer;
    const ValueId x = mul.inputs[1 - gate_operand];
    if (gate == kNoProducer || !gated_activation(graph.node(gate).op)) continue;
    if (graph.node(gate).inputs.front() == x) return GatedActivation{gate, x};
  }
  return std::nullopt;
}

}  // namespace

int recognize_gated_activations(Graph& graph) {
  const Readers readers(graph);
  std::vector<bool> removed(graph.nodes().size(), false);
  int recognized = 0;
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    const auto id = static_cast<NodeId>(n);
    Node& mul = graph.node(id);
    const std::optional<GatedActivation> gated = match_gate(graph, mul);
    if (!gated || readers.sole_reader(graph.node(gated->gate).output, removed) != id) continue;
    mul.op = *gated_activation(graph.node(gated->gate).op);
    mul.inputs = {gated->x};
    removed[static_cast<size_t>(gated->gate)] = true;
    ++recognized;
  }
  if (recognized) graph.remove_nodes(removed);
  return recognized;
}

}  // namespace layoutopt::graph
