#include "layoutopt/planning/plan_dot.h"

#include <algorithm>
#include <array>
#include <iomanip>
#include <sstream>
#include <utility>

namespace layoutopt::planning {

namespace {

/// Fill colour per channel block; one fixed palette so drawings of different plans compare.
constexpr std::array<std::pair<int64_t, const char*>, 6> kPalette{{{1, "#e0e0e0"},
                                                                   {4, "#ffe0b2"},
                                                                   {8, "#bbdefb"},
                                                                   {16, "#c8e6c9"},
                                                                   {32, "#f8bbd0"},
                                                                   {64, "#d1c4e9"}}};
constexpr const char* kOtherBlock = "#fff9c4";
constexpr const char* kTransformColor = "#ffcc80";

std::string color_of(const layout::Layout& layout) {
  const int64_t block = layout.block_of('C');
  for (const auto& [b, color] : kPalette)
    if (b == block) return color;
  return kOtherBlock;
}

std::string ms_text(double ms) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(3) << ms << " ms";
  return out.str();
}

std::string caption(const Plan& plan) {
  std::ostringstream out;
  out << "plan for " << plan.model << " (" << to_string(plan.costs) << " costs, " << to_string(plan.solver)
      << "): predicted "
      << ms_text(plan.predicted_ms) << " = " << ms_text(plan.kernel_ms()) << " kernels + "
      << ms_text(plan.transform_ms()) << " in " << plan.transforms.size() << " transforms (diamonds)\n"
      << "output layout colours: NCHW grey, NCHW4c orange, NCHW8c blue, NCHW16c green, NCHW32c pink, NCHW64c "
         "purple, other blocks yellow";
  return out.str();
}

graph::DotEdgeNode transform_node(const Plan& plan, const graph::Graph& graph, const PlanTransform& transform) {
  const graph::ValueId value = graph.find_value(transform.value).value();
  const auto& outputs = graph.outputs();
  const bool to_output = std::find(outputs.begin(), outputs.end(), value) != outputs.end() &&
                         transform.to == layout::canonical_data_layout(graph.value(value).type.shape.size());
  return {.value = value,
          .readers = transform_readers(plan, graph, transform),
          .to_outputs = to_output,
          .label = transform.from.str() + " -> " + transform.to.str() + ", " + ms_text(transform.ms),
          .shape = "diamond",
          .color = kTransformColor};
}

}  // namespace

graph::DotStyle plan_dot_style(const Plan& plan, const graph::Graph& graph) {
  graph::DotStyle style;
  // validate_plan guarantees the plan lists the graph's nodes; index them by graph node.
  std::vector<const PlanNode*> by_node(graph.nodes().size());
  for (const PlanNode& planned : plan.nodes)
    by_node[static_cast<size_t>(graph.find_node(planned.name).value())] = &planned;
  style.node_note = [by_node](graph::NodeId id) {
    const PlanNode& planned = *by_node[static_cast<size_t>(id)];
    return "-> " + planned.output.str() + "  " + ms_text(planned.ms) + "\n" + planned.label;
  };
  style.node_color = [by_node](graph::NodeId id) { return color_of(by_node[static_cast<size_t>(id)]->output); };
  for (const PlanTransform& transform : plan.transforms) style.edge_nodes.push_back(transform_node(plan, graph, transform));
  style.caption = caption(plan);
  return style;
}

}  // namespace layoutopt::planning
