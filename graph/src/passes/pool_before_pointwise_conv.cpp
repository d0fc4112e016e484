#include "layoutopt/graph/passes/pool_before_pointwise_conv.h"

#include <utility>

#include "layoutopt/graph/shape_inference.h"
#include "pointwise_conv.h"
#include "readers.h"

namespace layoutopt::graph {

namespace {

/// An average whose window weights sum to one everywhere: no padding and no partial windows.
bool is_plain_average(const Pool2d& pool) {
  return pool.kind == PoolKind::avg && pool.pads == Pads2d{} && !pool.ceil_mode;
}

int64_t pixels(const TensorType& type) { return type.shape[2] * type.shape[3]; }

}  // namespace

int pool_before_pointwise_convs(Graph& graph) {
  const Readers readers(graph);
  const std::vector<bool> none_removed(graph.nodes().size(), false);
  int exchanged = 0;
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    const auto conv_id = static_cast<NodeId>(n);
    const auto* conv = std::get_if<Conv2d>(&graph.node(conv_id).op);
    if (conv == nullptr || !is_pointwise_affine(*conv)) continue;
    const ValueId between = graph.node(conv_id).output;
    const std::optional<NodeId> pool_id = readers.sole_reader(between, none_removed);
    if (!pool_id) continue;
    const auto* pool = std::get_if<Pool2d>(&graph.node(*pool_id).op);
    if (pool == nullptr || !is_plain_average(*pool)) continue;
    if (pixels(graph.value(graph.node(*pool_id).output).type) >= pixels(graph.value(between).type)) continue;

    // The conv's node becomes the pool of its data input and the pool's node the conv of
    // that pooled value; the pool's result, which later nodes read, keeps its id and type.
    Node& first = graph.node(conv_id);
    Node& second = graph.node(*pool_id);
    // Three moves, not std::swap: variant::swap instantiates one function per pair of op
    // kinds (over a thousand), which made this file the slowest of the library to compile.
    Op pool_op = std::move(second.op);
    second.op = std::move(first.op);
    first.op = std::move(pool_op);
    graph.swap_node_names(conv_id, *pool_id);
    std::vector<ValueId> conv_inputs = std::move(first.inputs);
    first.inputs = {conv_inputs.front()};
    conv_inputs.front() = between;
    second.inputs = std::move(conv_inputs);
    graph.value(between).type = infer_output_type(graph, graph.node(conv_id));
    ++exchanged;
  }
  return exchanged;
}

}  // namespace layoutopt::graph
