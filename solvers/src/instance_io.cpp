#include "layoutopt/solvers/instance_io.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "layoutopt/solvers/error.h"
#include "layoutopt/solvers/matrix_pool.h"

namespace layoutopt::solvers {

namespace {

using nlohmann::json;

// Every parse error names the source and the place inside it.
[[noreturn]] void fail(std::string_view source, const std::string& where, const std::string& why) {
  throw SolverError(std::string(source) + ": " + where + ": " + why);
}

json cost_to_json(Cost cost) { return is_finite(cost) ? json(cost) : json(nullptr); }

Cost cost_from_json(const json& value, std::string_view source, const std::string& where) {
  if (value.is_null()) return kInfinity;
  if (!value.is_number()) fail(source, where, "expected a number or null, found " + value.dump());
  return value.get<Cost>();
}

const json& field(const json& object, const char* key, std::string_view source, const std::string& where) {
  if (!object.is_object()) fail(source, where, "expected an object, found " + object.dump());
  const auto it = object.find(key);
  if (it == object.end()) fail(source, where, std::string("missing field \"") + key + "\"");
  return *it;
}

const json& array_field(const json& object, const char* key, std::string_view source, const std::string& where) {
  const json& value = field(object, key, source, where);
  if (!value.is_array()) fail(source, where, std::string("\"") + key + "\" must be an array");
  return value;
}

std::string string_field(const json& object, const char* key, std::string_view source, const std::string& where) {
  const json& value = field(object, key, source, where);
  if (!value.is_string()) fail(source, where, std::string("\"") + key + "\" must be a string");
  return value.get<std::string>();
}

Vector vector_from_json(const json& values, std::string_view source, const std::string& where) {
  Vector result(static_cast<Eigen::Index>(values.size()));
  for (size_t i = 0; i < values.size(); ++i)
    result[static_cast<Eigen::Index>(i)] = cost_from_json(values[i], source, where + " entry " + std::to_string(i));
  return result;
}

Matrix matrix_from_json(const json& rows, std::string_view source, const std::string& where) {
  const size_t cols = rows.empty() || !rows[0].is_array() ? 0 : rows[0].size();
  Matrix result(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(cols));
  for (size_t r = 0; r < rows.size(); ++r) {
    const std::string row_where = where + " row " + std::to_string(r);
    if (!rows[r].is_array()) fail(source, row_where, "expected an array of costs");
    if (rows[r].size() != cols)
      fail(source, row_where, "has " + std::to_string(rows[r].size()) + " entries, expected " + std::to_string(cols));
    result.row(static_cast<Eigen::Index>(r)) = vector_from_json(rows[r], source, row_where).transpose();
  }
  return result;
}

void add_node_from_json(Problem& problem, const json& node, size_t index, std::string_view source) {
  const std::string where = "node " + std::to_string(index);
  const std::string name = string_field(node, "name", source, where);
  const std::string named = "node '" + name + "'";
  Vector costs = vector_from_json(array_field(node, "costs", source, named), source, named + " costs");
  std::vector<std::string> labels;
  if (node.contains("labels")) {
    for (const json& label : array_field(node, "labels", source, named)) {
      if (!label.is_string()) fail(source, named, "labels must be strings");
      labels.push_back(label.get<std::string>());
    }
  }
  try {
    problem.add_node(name, std::move(costs), std::move(labels));
  } catch (const SolverError& error) {
    fail(source, where, error.what());
  }
}

void add_edge_from_json(Problem& problem, MatrixPool& pool, const json& edge, size_t index, std::string_view source) {
  const std::string where = "edge " + std::to_string(index);
  const std::string from = string_field(edge, "from", source, where);
  const std::string to = string_field(edge, "to", source, where);
  const std::string named = where + " ('" + from + "' -> '" + to + "')";
  Matrix costs = matrix_from_json(array_field(edge, "costs", source, named), source, named + " costs");
  try {
    problem.add_edge(problem.id_of(from), problem.id_of(to), pool.intern(std::move(costs)));
  } catch (const SolverError& error) {
    fail(source, named, error.what());
  }
}

}  // namespace

json problem_to_json(const Problem& problem) {
  json nodes = json::array();
  for (const Node& node : problem.nodes()) {
    json costs = json::array();
    for (Cost cost : node.costs) costs.push_back(cost_to_json(cost));
    json entry = {{"name", node.name}, {"costs", std::move(costs)}};
    if (!node.labels.empty()) entry["labels"] = node.labels;
    nodes.push_back(std::move(entry));
  }
  json edges = json::array();
  for (const Edge& edge : problem.edges()) {
    json rows = json::array();
    for (Eigen::Index r = 0; r < edge.costs->rows(); ++r) {
      json row = json::array();
      for (Eigen::Index c = 0; c < edge.costs->cols(); ++c) row.push_back(cost_to_json((*edge.costs)(r, c)));
      rows.push_back(std::move(row));
    }
    edges.push_back({{"from", problem.node(edge.from).name}, {"to", problem.node(edge.to).name}, {"costs", rows}});
  }
  return {{"nodes", std::move(nodes)}, {"edges", std::move(edges)}};
}

Problem problem_from_json(const json& json_value, std::string_view source) {
  Problem problem;
  MatrixPool pool;  // files repeat matrices as DNNs repeat shapes: share them in memory
  const json& nodes = array_field(json_value, "nodes", source, "top level");
  for (size_t i = 0; i < nodes.size(); ++i) add_node_from_json(problem, nodes[i], i, source);
  if (!json_value.contains("edges")) return problem;
  const json& edges = array_field(json_value, "edges", source, "top level");
  for (size_t i = 0; i < edges.size(); ++i) add_edge_from_json(problem, pool, edges[i], i, source);
  return problem;
}

void save_instance(const Problem& problem, const std::filesystem::path& path) {
  std::ofstream out(path);
  if (!out) throw SolverError(path.string() + ": cannot open for writing");
  out << problem_to_json(problem).dump() << "\n";
  if (!out) throw SolverError(path.string() + ": write failed");
}

Problem load_instance(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw SolverError(path.string() + ": cannot open instance file");
  json parsed;
  try {
    parsed = json::parse(in);
  } catch (const json::parse_error& error) {
    throw SolverError(path.string() + ": malformed JSON: " + error.what());
  }
  return problem_from_json(parsed, path.string());
}

}  // namespace layoutopt::solvers
