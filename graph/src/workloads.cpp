#include "layoutopt/graph/workloads.h"

#include <map>
#include <set>

#include "layoutopt/graph/error.h"

namespace layoutopt::graph {

namespace {

std::string compact(const Shape& shape) {
  std::string text;
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? "," : "") + std::to_string(shape[i]);
  return text;
}

}  // namespace

int64_t parameter_count(const Graph& graph) {
  std::set<ValueId> running_statistics;
  for (const Node& node : graph.nodes())
    if (std::holds_alternative<BatchNorm>(node.op) && node.inputs.size() == 5) {
      running_statistics.insert(node.inputs[3]);
      running_statistics.insert(node.inputs[4]);
    }
  int64_t count = 0;
  for (size_t v = 0; v < graph.values().size(); ++v) {
    const Value& value = graph.values()[v];
    if (value.kind == ValueKind::parameter && !running_statistics.contains(static_cast<ValueId>(v)))
      count += element_count(value.type.shape);
  }
  return count;
}

bool has_workload(const Node& node) {
  return std::holds_alternative<Conv2d>(node.op) || std::holds_alternative<Dense>(node.op);
}

int64_t mac_count(const Graph& graph, const Node& node) {
  // A transposed conv scatters each input element through its [O/groups, KH, KW] filter.
  if (std::holds_alternative<ConvTranspose2d>(node.op))
    return element_count(graph.value(node.inputs[0]).type.shape) * element_count(graph.value(node.inputs[1]).type.shape) /
           graph.value(node.inputs[1]).type.shape[0];
  if (!has_workload(node)) return 0;
  const Shape& out = graph.value(node.output).type.shape;
  const Shape& w = graph.value(node.inputs[1]).type.shape;
  if (std::holds_alternative<Dense>(node.op)) return out[0] * w[0] * w[1];
  return element_count(out) * w[1] * w[2] * w[3];
}

int64_t mac_count(const Graph& graph) {
  int64_t total = 0;
  for (const Node& node : graph.nodes()) total += mac_count(graph, node);
  return total;
}

std::string Workload::signature() const {
  std::string text = kind + " x[" + compact(input) + "] w[" + compact(weight) + "]";
  if (kind == "dense") return text;
  return text + " s" + std::to_string(stride.h) + "x" + std::to_string(stride.w) + " p" +
         compact({pads.top, pads.left, pads.bottom, pads.right}) + " d" + std::to_string(dilation.h) + "x" +
         std::to_string(dilation.w) + " g" + std::to_string(groups);
}

Workload workload_of(const Graph& graph, NodeId id) {
  const Node& node = graph.node(id);
  if (!has_workload(node)) throw GraphError("node '" + node.name + "' (" + op_name(node.op) + ") has no workload");
  Workload w;
  w.input = graph.value(node.inputs[0]).type.shape;
  w.weight = graph.value(node.inputs[1]).type.shape;
  w.output = graph.value(node.output).type.shape;
  w.macs = mac_count(graph, node);
  w.nodes = {id};
  if (const auto* conv = std::get_if<Conv2d>(&node.op)) {
    w.kind = is_depthwise(*conv, w.input[1]) ? "depthwise_conv2d" : conv->groups > 1 ? "group_conv2d" : "conv2d";
    w.stride = conv->stride;
    w.dilation = conv->dilation;
    w.pads = conv->pads;
    w.groups = conv->groups;
  } else {
    w.kind = "dense";
  }
  return w;
}

std::vector<Workload> extract_workloads(const Graph& graph) {
  std::vector<Workload> workloads;
  std::map<std::string, size_t> index_of;
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    if (!has_workload(graph.nodes()[n])) continue;
    Workload w = workload_of(graph, static_cast<NodeId>(n));
    const auto [it, inserted] = index_of.emplace(w.signature(), workloads.size());
    if (inserted) workloads.push_back(std::move(w));
    else workloads[it->second].nodes.push_back(static_cast<NodeId>(n));
  }
  return workloads;
}

}  // namespace layoutopt::graph
