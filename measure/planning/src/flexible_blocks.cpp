#include "layoutopt/planning/flexible_blocks.h"

#include <numeric>

namespace layoutopt::planning {

int64_t flexible_channel_bound(const graph::Graph& graph, graph::NodeId id) {
  const graph::Node& node = graph.node(id);
  int64_t channels = graph.value(node.output).type.shape.at(1);
  for (graph::ValueId input : graph::activation_inputs(graph, id))
    channels = std::gcd(channels, graph.value(input).type.shape.at(1));
  // gcd(c, 0) = c: a slice from channel 0 adds no constraint.
  if (const auto* slice = std::get_if<graph::Slice>(&node.op); slice && (slice->axis == 1 || slice->axis == -3))
    channels = std::gcd(channels, slice->start);
  return channels;
}

}  // namespace layoutopt::planning
