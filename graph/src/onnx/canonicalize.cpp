#include "canonicalize.h"

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "layoutopt/graph/error.h"
#include "node_naming.h"

namespace layoutopt::graph::onnx {

namespace {

bool is_identity(const pb::NodeProto& node) {
  return in_default_domain(node) && node.op_type() == "Identity" && node.input_size() == 1 && node.output_size() == 1;
}

/// The index of the node producing each tensor.
std::unordered_map<std::string, int> producers(const pb::GraphProto& graph) {
  std::unordered_map<std::string, int> producer;
  for (int n = 0; n < graph.node_size(); ++n)
    for (const std::string& output : graph.node(n).output())
      if (!output.empty()) producer[output] = n;
  return producer;
}

}  // namespace

int forward_identities(pb::GraphProto& graph) {
  std::unordered_map<std::string, std::string> source;
  for (const pb::NodeProto& node : graph.node())
    if (is_identity(node)) source[node.output(0)] = node.input(0);
  std::unordered_set<std::string> graph_outputs;
  for (const pb::ValueInfoProto& output : graph.output()) graph_outputs.insert(output.name());
  const auto resolve = [&](std::string name) {
    // Bounded by the Identity count, so a (malformed) cycle of Identities cannot loop forever.
    for (size_t hops = 0; hops <= source.size(); ++hops) {
      const auto it = source.find(name);
      if (it == source.end()) return name;
      name = it->second;
    }
    throw GraphError("Identity nodes form a cycle through '" + name + "'");
  };
  for (pb::NodeProto& node : *graph.mutable_node())
    for (std::string& input : *node.mutable_input())
      if (!input.empty()) input = resolve(input);
  int bypassed = 0;
  for (const auto& [output, input] : source) bypassed += !graph_outputs.contains(output);
  return bypassed;
}

int remove_dead_nodes(pb::GraphProto& graph) {
  const std::unordered_map<std::string, int> producer = producers(graph);
  std::vector<bool> live(static_cast<size_t>(graph.node_size()), false);
  std::vector<std::string> pending;
  for (const pb::ValueInfoProto& output : graph.output()) pending.push_back(output.name());
  while (!pending.empty()) {
    const std::string tensor = std::move(pending.back());
    pending.pop_back();
    const auto it = producer.find(tensor);
    if (it == producer.end() || live[static_cast<size_t>(it->second)]) continue;
    live[static_cast<size_t>(it->second)] = true;
    for (const std::string& input : graph.node(it->second).input()) pending.push_back(input);
  }
  pb::GraphProto kept_nodes;
  int removed = 0;
  for (int n = 0; n < graph.node_size(); ++n) {
    if (live[static_cast<size_t>(n)]) *kept_nodes.add_node() = std::move(*graph.mutable_node(n));
    else ++removed;
  }
  graph.mutable_node()->Swap(kept_nodes.mutable_node());
  return removed;
}

void sort_topologically(pb::GraphProto& graph) {
  const std::unordered_map<std::string, int> producer = producers(graph);
  const auto count = static_cast<size_t>(graph.node_size());
  std::vector<int> state(count, 0);  // 0 unvisited, 1 on the stack, 2 placed
  std::vector<int> order;
  // Iterative depth-first search: real networks are thousands of nodes deep.
  for (int root = 0; root < graph.node_size(); ++root) {
    std::vector<std::pair<int, int>> stack{{root, 0}};
    while (!stack.empty()) {
      auto& [n, next_input] = stack.back();
      auto& s = state[static_cast<size_t>(n)];
      if (s == 2) {
        stack.pop_back();
        continue;
      }
      s = 1;
      if (next_input < graph.node(n).input_size()) {
        const auto it = producer.find(graph.node(n).input(next_input++));
        if (it != producer.end() && state[static_cast<size_t>(it->second)] != 2) {
          if (state[static_cast<size_t>(it->second)] == 1)
            throw GraphError(node_label(graph.node(it->second), static_cast<size_t>(it->second)) + " depends on its own output");
          stack.emplace_back(it->second, 0);
        }
        continue;
      }
      s = 2;
      order.push_back(n);
      stack.pop_back();
    }
  }
  pb::GraphProto sorted;
  for (int n : order) *sorted.add_node() = std::move(*graph.mutable_node(n));
  graph.mutable_node()->Swap(sorted.mutable_node());
}

}  // namespace layoutopt::graph::onnx
