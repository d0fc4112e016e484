#include "network/lower_products.h"

#include "layoutopt/kernels/batch_matmul.h"
#include "layoutopt/layout/transform.h"

namespace layoutopt::kernels::network {

std::optional<Kernel> batch_matmul_kernel(const graph::Graph& graph, graph::NodeId id, const NodeSchedule& schedule) {
  const graph::Node& node = graph.node(id);
  for (const graph::ValueId input : node.inputs)
    if (graph.value(input).kind == graph::ValueKind::parameter) return std::nullopt;  // kernels read activations
  const graph::Shape& a = graph.value(node.inputs.at(0)).type.shape;
  const graph::Shape& b = graph.value(node.inputs.at(1)).type.shape;
  if (!layout::in_canonical_order(a, schedule.inputs.at(0)) || !layout::in_canonical_order(b, schedule.inputs.at(1)) ||
      !layout::in_canonical_order(graph.value(node.output).type.shape, schedule.output))
    return std::nullopt;
  const BatchMatMulDesc desc{a, b};
  return compile_batch_matmul(desc, batch_matmul_default_schedule(desc));
}

}  // namespace layoutopt::kernels::network
