#pragma once
// The project's own model format: a JSON document that round-trips a Graph exactly.
// Explicit weights are stored as base64 of little-endian float32 (bit-exact); seeded
// random weights as their recipe. Loading validates the graph, so a hand-edited file
// with a wrong shape is rejected with the node named.

#include <filesystem>
#include <nlohmann/json_fwd.hpp>

#include "layoutopt/graph/graph.h"

namespace layoutopt::graph {

[[nodiscard]] nlohmann::json to_json(const Graph& graph);
[[nodiscard]] Graph graph_from_json(const nlohmann::json& document);

void save_json(const Graph& graph, const std::filesystem::path& path);
[[nodiscard]] Graph load_json(const std::filesystem::path& path);

}  // namespace layoutopt::graph
