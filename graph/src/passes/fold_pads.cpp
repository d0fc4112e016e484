#include "layoutopt/graph/passes/fold_pads.h"

#include <algorithm>
#include <optional>

#include "readers.h"

namespace layoutopt::graph {

namespace {

Pads2d operator+(const Pads2d& a, const Pads2d& b) {
  return {a.top + b.top, a.left + b.left, a.bottom + b.bottom, a.right + b.right};
}

/// Gives `reader` the padding `extra` itself, if it can; false if it cannot.
bool absorb(Node& reader, const Pads2d& extra) {
  if (auto* conv = std::get_if<Conv2d>(&reader.op)) {
    conv->pads = conv->pads + extra;
    return true;
  }
  auto* pool = std::get_if<Pool2d>(&reader.op);
  if (pool == nullptr || pool->kind != PoolKind::avg || pool->ceil_mode || pool->pads != Pads2d{}) return false;
  pool->pads = extra;
  pool->count_include_pad = true;  // the window over the padded tensor divides by its full size
  return true;
}

/// The sole reader of `value`, if it reads it as its data operand (a conv's weights are
/// parameters, never a pad's result) and only once.
std::optional<NodeId> sole_data_reader(const Graph& graph, const Readers& readers, ValueId value,
                                       const std::vector<bool>& removed) {
  const std::optional<NodeId> reader = readers.sole_reader(value, removed);
  if (!reader) return std::nullopt;
  const auto& inputs = graph.node(*reader).inputs;
  if (inputs.empty() || inputs.front() != value || std::count(inputs.begin(), inputs.end(), value) != 1)
    return std::nullopt;
  return reader;
}

}  // namespace

int fold_pads(Graph& graph) {
  const Readers readers(graph);
  std::vector<bool> removed(graph.nodes().size(), false);
  int folded = 0;
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    const Node& node = graph.node(static_cast<NodeId>(n));
    const auto* pad = std::get_if<Pad>(&node.op);
    if (pad == nullptr || pad->value != 0.0f) continue;
    const std::optional<NodeId> reader = sole_data_reader(graph, readers, node.output, removed);
    if (!reader) continue;
    Node& target = graph.node(*reader);
    if (!absorb(target, pad->pads)) continue;
    target.inputs.front() = node.inputs.front();
    removed[n] = true;
    ++folded;
  }
  if (folded) graph.remove_nodes(removed);
  return folded;
}

}  // namespace layoutopt::graph
