#include "layoutopt/graph/fingerprint.h"

#include <cstdint>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "op_attributes_json.h"

namespace layoutopt::graph {

namespace {

/// FNV-1a, 64 bits: stable across platforms and runs, which std::hash is not.
uint64_t fnv1a(const std::string& text) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (const unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

/// Everything the fingerprint covers, in graph order; names and weights left out.
nlohmann::json structure(const Graph& graph) {
  nlohmann::json values = nlohmann::json::array();
  for (const Value& value : graph.values())
    values.push_back({static_cast<int>(value.kind), value.type.shape, value.producer});
  nlohmann::json nodes = nlohmann::json::array();
  for (const Node& node : graph.nodes())
    nodes.push_back({op_name(node.op), op_attributes_to_json(node.op), node.inputs, node.output});
  return {{"values", values}, {"nodes", nodes}, {"inputs", graph.inputs()}, {"outputs", graph.outputs()}};
}

}  // namespace

std::string structure_fingerprint(const Graph& graph) {
  std::ostringstream hex;
  hex << std::hex << std::setw(16) << std::setfill('0') << fnv1a(structure(graph).dump());
  return hex.str();
}

}  // namespace layoutopt::graph
