#include "layoutopt/graph/passes/subsample_strided_pointwise_conv.h"

namespace layoutopt::graph {

namespace {

bool is_strided_pointwise(const Conv2d& conv) {
  return conv.kernel == Hw{1, 1} && conv.stride != Hw{1, 1} && conv.pads == Pads2d{};
}

}  // namespace

int subsample_before_strided_pointwise_convs(Graph& graph) {
  int split = 0;
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    const auto conv_id = static_cast<NodeId>(n);
    auto* conv = std::get_if<Conv2d>(&graph.node(conv_id).op);
    if (conv == nullptr || !is_strided_pointwise(*conv)) continue;
    const Pool2d subsample{.kind = PoolKind::avg, .stride = conv->stride};
    conv->stride = Hw{1, 1};
    const std::string name = graph.unique_name(graph.node(conv_id).name + ".subsample");
    const ValueId pixels = graph.add_node(name, subsample, {graph.node(conv_id).inputs.front()});
    graph.node(conv_id).inputs.front() = pixels;
    graph.move_node_before(graph.value(pixels).producer, conv_id);  // the conv is now at n + 1
    ++n;
    ++split;
  }
  return split;
}

}  // namespace layoutopt::graph
