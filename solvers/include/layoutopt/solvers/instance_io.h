#pragma once
// Instance files: JSON with costs in milliseconds and null for a forbidden (infinite) entry.
//
//   {"nodes": [{"name": "conv1", "costs": [0.12, 0.10], "labels": ["NCHW8c->NCHW16c", "..."]}],
//    "edges": [{"from": "conv1", "to": "conv2", "costs": [[0, 0.02], [0.03, null]]}]}
//
// "labels" is optional. Saving then loading reproduces every cost bit for bit.

#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <string_view>

#include "layoutopt/solvers/problem.h"

namespace layoutopt::solvers {

[[nodiscard]] nlohmann::json problem_to_json(const Problem& problem);
/// `source` names the input (a file path) in error messages.
[[nodiscard]] Problem problem_from_json(const nlohmann::json& json, std::string_view source = "<json>");

void save_instance(const Problem& problem, const std::filesystem::path& path);
/// Throws SolverError naming the file and the problem (syntax, missing field, wrong size...).
[[nodiscard]] Problem load_instance(const std::filesystem::path& path);

}  // namespace layoutopt::solvers
