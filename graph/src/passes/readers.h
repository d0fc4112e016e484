#pragma once
// Who reads a value, for passes that rewrite a node into its only reader (internal).

#include <algorithm>
#include <optional>
#include <vector>

#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

/// The graph's readers per value, kept up to date by the pass as it rewires the graph.
class Readers {
 public:
  explicit Readers(const Graph& graph) : graph_(graph), readers_(graph.consumers()) {}

  /// The one node reading `value`, not counting nodes already `removed`; none when more
  /// nodes read it or it is a graph output (whose memory the user sees).
  [[nodiscard]] std::optional<NodeId> sole_reader(ValueId value, const std::vector<bool>& removed) const {
    const auto& outputs = graph_.outputs();
    if (std::find(outputs.begin(), outputs.end(), value) != outputs.end()) return std::nullopt;
    std::optional<NodeId> found;
    for (NodeId reader : readers_[static_cast<size_t>(value)]) {
      if (removed[static_cast<size_t>(reader)]) continue;
      if (found) return std::nullopt;
      found = reader;
    }
    return found;
  }

  /// Records that the readers of `from` now read `to`.
  void moved(ValueId from, ValueId to) {
    auto& target = readers_[static_cast<size_t>(to)];
    for (NodeId reader : readers_[static_cast<size_t>(from)]) target.push_back(reader);
  }

 private:
  const Graph& graph_;
  std::vector<std::vector<NodeId>> readers_;
};

}  // namespace layoutopt::graph
