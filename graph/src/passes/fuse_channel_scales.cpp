#include "layoutopt/graph/passes/fuse_channel_scales.h"

#include <algorithm>
#include <optional>

#include "readers.h"

namespace layoutopt::graph {

namespace {

/// The operands of a Mul that scales a tensor per image and channel.
struct ChannelScale {
  ValueId x = -1;      ///< the [N, C, H, W] tensor
  ValueId scale = -1;  ///< its [N, C, 1, 1] factors
};

bool computed(const Graph& graph, ValueId value) { return graph.value(value).kind != ValueKind::parameter; }

/// x and s of `mul` when it is Mul(x, s) or Mul(s, x) with both computed and s exactly
/// [N, C, 1, 1] for x's N and C (a conv's scale input has that shape; a scale shared by the
/// images would need a broadcast first).
std::optional<ChannelScale> match_channel_scale(const Graph& graph, const Node& mul) {
  if (!std::holds_alternative<Mul>(mul.op)) return std::nullopt;
  for (const size_t x_operand : {size_t{0}, size_t{1}}) {
    const ValueId x = mul.inputs[x_operand];
    const ValueId scale = mul.inputs[1 - x_operand];
    if (!computed(graph, x) || !computed(graph, scale)) continue;
    const Shape& x_shape = graph.value(x).type.shape;
    if (x_shape.size() != 4 || x_shape != graph.value(mul.output).type.shape) continue;
    if (graph.value(scale).type.shape == Shape{x_shape[0], x_shape[1], 1, 1}) return ChannelScale{x, scale};
  }
  return std::nullopt;
}

/// True for a 1x1 groups-1 conv without an input scale yet that reads `value` as its data
/// input and nowhere else.
bool takes_scale(const Node& node, ValueId value) {
  const auto* conv = std::get_if<Conv2d>(&node.op);
  if (conv == nullptr || conv->input_scale || conv->groups != 1) return false;
  if (conv->kernel != Hw{1, 1}) return false;
  return node.inputs.front() == value && std::count(node.inputs.begin(), node.inputs.end(), value) == 1;
}

}  // namespace

int fuse_channel_scales(Graph& graph) {
  const Readers readers(graph);
  std::vector<bool> removed(graph.nodes().size(), false);
  int fused = 0;
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    const Node& mul = graph.node(static_cast<NodeId>(n));
    const std::optional<ChannelScale> operands = match_channel_scale(graph, mul);
    if (!operands) continue;
    const std::optional<NodeId> reader = readers.sole_reader(mul.output, removed);
    if (!reader || !takes_scale(graph.node(*reader), mul.output)) continue;
    Node& conv = graph.node(*reader);
    std::get<Conv2d>(conv.op).input_scale = true;
    conv.inputs.front() = operands->x;
    conv.inputs.insert(conv.inputs.begin() + static_cast<std::ptrdiff_t>(*conv_inputs(std::get<Conv2d>(conv.op)).scale),
                       operands->scale);
    removed[n] = true;
    ++fused;
  }
  if (fused) graph.remove_nodes(removed);
  return fused;
}

}  // namespace layoutopt::graph
