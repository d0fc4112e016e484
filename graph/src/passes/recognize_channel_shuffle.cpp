#include "layoutopt/graph/passes/recognize_channel_shuffle.h"

#include <optional>

#include "readers.h"

namespace layoutopt::graph {

namespace {

/// The three nodes of one channel shuffle and its group count.
struct ShuffleChain {
  NodeId split = kNoProducer, transpose = kNoProducer, merge = kNoProducer;
  int64_t groups = 1;
};

/// The groups g when `node` reshapes [N, C, H, W] to [N, g, C/g, H, W].
std::optional<int64_t> split_groups(const Graph& graph, const Node& node) {
  if (!std::holds_alternative<Reshape>(node.op)) return std::nullopt;
  const Shape& x = graph.value(node.inputs.front()).type.shape;
  const Shape& split = graph.value(node.output).type.shape;
  if (x.size() != 4 || split.size() != 5) return std::nullopt;
  if (split[0] != x[0] || split[1] * split[2] != x[1] || split[3] != x[2] || split[4] != x[3]) return std::nullopt;
  return split[1];
}

std::optional<ShuffleChain> match_shuffle(const Graph& graph, const Readers& readers, NodeId split,
                                          const std::vector<bool>& removed) {
  const Node& first = graph.node(split);
  const std::optional<int64_t> groups = split_groups(graph, first);
  if (!groups) return std::nullopt;
  const std::optional<NodeId> transpose = readers.sole_reader(first.output, removed);
  if (!transpose) return std::nullopt;
  const auto* perm = std::get_if<Transpose>(&graph.node(*transpose).op);
  if (perm == nullptr || perm->perm != std::vector<int64_t>{0, 2, 1, 3, 4}) return std::nullopt;
  const std::optional<NodeId> merge = readers.sole_reader(graph.node(*transpose).output, removed);
  if (!merge) return std::nullopt;
  const Node& last = graph.node(*merge);
  const Shape& x = graph.value(first.inputs.front()).type.shape;
  if (!std::holds_alternative<Reshape>(last.op) || graph.value(last.output).type.shape != x) return std::nullopt;
  return ShuffleChain{split, *transpose, *merge, *groups};
}

}  // namespace

int recognize_channel_shuffle(Graph& graph) {
  const Readers readers(graph);
  std::vector<bool> removed(graph.nodes().size(), false);
  int recognized = 0;
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    if (removed[n]) continue;
    const std::optional<ShuffleChain> chain = match_shuffle(graph, readers, static_cast<NodeId>(n), removed);
    if (!chain) continue;
    Node& merge = graph.node(chain->merge);
    merge.op = ChannelShuffle{.groups = chain->groups};
    merge.inputs = {graph.node(chain->split).inputs.front()};
    removed[static_cast<size_t>(chain->split)] = true;
    removed[static_cast<size_t>(chain->transpose)] = true;
    ++recognized;
  }
  if (recognized) graph.remove_nodes(removed);
  return recognized;
}

}  // namespace layoutopt::graph
