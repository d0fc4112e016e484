#include "matmul_bias.h"

#include <optional>
#include <vector>

namespace layoutopt::graph::onnx {

namespace {

/// Rank of `name` if it is a constant or a graph input, i.e. fixed before the run starts.
std::optional<size_t> fixed_tensor_rank(const pb::GraphProto& graph, const ConstantTable& constants,
                                        const std::string& name) {
  if (const pb::TensorProto* constant = constants.find(name)) return static_cast<size_t>(constant->dims_size());
  for (const pb::ValueInfoProto& input : graph.input())
    if (input.name() == name && input.type().tensor_type().has_shape())
      return static_cast<size_t>(input.type().tensor_type().shape().dim_size());
  return std::nullopt;
}

/// Indices of the nodes reading each tensor, and whether it is a graph output.
struct Readers {
  std::unordered_map<std::string, std::vector<size_t>> nodes;
  std::unordered_map<std::string, bool> graph_output;
};

Readers find_readers(const pb::GraphProto& graph) {
  Readers readers;
  for (int n = 0; n < graph.node_size(); ++n)
    for (const std::string& input : graph.node(n).input()) readers.nodes[input].push_back(static_cast<size_t>(n));
  for (const pb::ValueInfoProto& output : graph.output()) readers.graph_output[output.name()] = true;
  return readers;
}

}  // namespace

std::unordered_map<size_t, BiasFusion> plan_bias_fusions(const pb::GraphProto& graph, const ConstantTable& constants) {
  std::unordered_map<size_t, BiasFusion> fusions;
  const Readers readers = find_readers(graph);
  for (int n = 0; n < graph.node_size(); ++n) {
    const pb::NodeProto& matmul = graph.node(n);
    if (matmul.op_type() != "MatMul" || !in_default_domain(matmul) || matmul.output_size() != 1) continue;
    const std::string& product = matmul.output(0);
    const auto it = readers.nodes.find(product);
    if (readers.graph_output.contains(product) || it == readers.nodes.end() || it->second.size() != 1) continue;
    const pb::NodeProto& add = graph.node(static_cast<int>(it->second.front()));
    if (add.op_type() != "Add" || !in_default_domain(add) || add.input_size() != 2) continue;
    const std::string& other = add.input(0) == product ? add.input(1) : add.input(0);
    if (fixed_tensor_rank(graph, constants, other) == size_t{1})
      fusions.emplace(static_cast<size_t>(n), BiasFusion{it->second.front(), other});
  }
  return fusions;
}

}  // namespace layoutopt::graph::onnx
