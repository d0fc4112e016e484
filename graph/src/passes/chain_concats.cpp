#include "layoutopt/graph/passes/chain_concats.h"

#include <map>
#include <utility>

namespace layoutopt::graph {

namespace {

// A concat's identity for prefix matching: its axis and its inputs in order.
using ConcatKey = std::pair<int64_t, std::vector<ValueId>>;

// The earlier concat covering the longest proper prefix (two inputs or more) of `key`'s
// inputs, and that prefix's length; {kNoProducer, 0} when there is none.
std::pair<NodeId, size_t> longest_prefix(const std::map<ConcatKey, NodeId>& earlier, const ConcatKey& key) {
  const std::vector<ValueId>& inputs = key.second;
  for (size_t length = inputs.size() - 1; length >= 2; --length) {
    const ConcatKey prefix{key.first, {inputs.begin(), inputs.begin() + static_cast<std::ptrdiff_t>(length)}};
    if (auto found = earlier.find(prefix); found != earlier.end()) return {found->second, length};
  }
  return {kNoProducer, 0};
}

}  // namespace

int chain_concats(Graph& graph) {
  // Keys are the inputs before any rewrite: the next layer's concat repeats those, not the
  // chained form. Only concats earlier in node order qualify, so the graph stays in
  // topological order.
  std::map<ConcatKey, NodeId> earlier;
  int rewritten = 0;
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    Node& node = graph.node(static_cast<NodeId>(n));
    const auto* concat = std::get_if<Concat>(&node.op);
    if (concat == nullptr || node.inputs.size() < 2) continue;
    ConcatKey key{concat->axis, node.inputs};
    if (key.second.size() >= 3) {
      const auto [prefix_node, length] = longest_prefix(earlier, key);
      if (prefix_node != kNoProducer) {
        std::vector<ValueId> chained{graph.node(prefix_node).output};
        chained.insert(chained.end(), key.second.begin() + static_cast<std::ptrdiff_t>(length), key.second.end());
        node.inputs = std::move(chained);
        ++rewritten;
      }
    }
    earlier.emplace(std::move(key), static_cast<NodeId>(n));
  }
  return rewritten;
}

}  // namespace layoutopt::graph
