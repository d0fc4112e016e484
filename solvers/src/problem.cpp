#include "layoutopt/solvers/problem.h"

#include <cmath>

#include "layoutopt/solvers/error.h"

namespace layoutopt::solvers {

namespace {

bool has_nan(const Eigen::Ref<const Matrix>& values) { return values.array().isNaN().any(); }

std::string shape_text(Eigen::Index rows, Eigen::Index cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

}  // namespace

uint64_t Problem::pair_key(NodeId a, NodeId b) {
  const auto lo = static_cast<uint64_t>(std::min(a, b));
  const auto hi = static_cast<uint64_t>(std::max(a, b));
  return lo << 32 | hi;
}

NodeId Problem::add_node(std::string name, Vector costs, std::vector<std::string> labels) {
  if (name.empty()) throw SolverError("node " + std::to_string(nodes_.size()) + " has an empty name");
  if (by_name_.contains(name)) throw SolverError("duplicate node name '" + name + "'");
  if (costs.size() == 0) throw SolverError("node '" + name + "' has no candidates");
  if (has_nan(costs)) throw SolverError("node '" + name + "' has a NaN cost");
  if (!labels.empty() && labels.size() != static_cast<size_t>(costs.size()))
    throw SolverError("node '" + name + "' has " + std::to_string(labels.size()) + " labels, expected " +
                      std::to_string(costs.size()) + " (one per candidate)");
  const auto id = static_cast<NodeId>(nodes_.size());
  by_name_.emplace(name, id);
  nodes_.push_back({std::move(name), std::move(costs), std::move(labels)});
  incident_.emplace_back();
  return id;
}

void Problem::add_edge(NodeId from, NodeId to, MatrixPtr costs) {
  if (from < 0 || to < 0 || static_cast<size_t>(std::max(from, to)) >= nodes_.size())
    throw SolverError("edge between unknown node ids " + std::to_string(from) + " and " + std::to_string(to));
  // Named only when something is wrong: solvers build problems with thousands of edges.
  const auto where = [&] { return "edge '" + nodes_[from].name + "' -> '" + nodes_[to].name + "'"; };
  if (from == to) throw SolverError(where() + ": self-edges are not allowed");
  if (!costs) throw SolverError(where() + ": missing cost matrix");
  if (costs->rows() != candidates(from) || costs->cols() != candidates(to))
    throw SolverError(where() + ": cost matrix is " + shape_text(costs->rows(), costs->cols()) + ", expected " +
                      shape_text(candidates(from), candidates(to)) + " (candidates of source x candidates of target)");
  if (has_nan(*costs)) throw SolverError(where() + ": cost matrix has a NaN entry");
  const auto [it, inserted] = edge_by_pair_.try_emplace(pair_key(from, to), static_cast<int>(edges_.size()));
  if (inserted) {
    edges_.push_back({from, to, std::move(costs)});
    incident_[from].push_back(it->second);
    incident_[to].push_back(it->second);
    return;
  }
  // A multi-edge: both matrices apply, so the merged edge carries their sum.
  Edge& existing = edges_[it->second];
  const Matrix added = existing.from == from ? Matrix(*costs) : Matrix(costs->transpose());
  existing.costs = std::make_shared<const Matrix>(*existing.costs + added);
}

void Problem::add_edge(std::string_view from, std::string_view to, Matrix costs) {
  add_edge(id_of(from), id_of(to), std::make_shared<const Matrix>(std::move(costs)));
}

std::optional<NodeId> Problem::find(std::string_view name) const {
  const auto it = by_name_.find(std::string(name));
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

NodeId Problem::id_of(std::string_view name) const {
  if (const auto id = find(name)) return *id;
  throw SolverError("unknown node '" + std::string(name) + "'");
}

Cost Problem::evaluate(std::span<const int> assignment) const {
  if (assignment.size() != nodes_.size())
    throw SolverError("assignment has " + std::to_string(assignment.size()) + " entries, expected " +
                      std::to_string(nodes_.size()) + " (one per node)");
  Cost total = 0;
  for (size_t v = 0; v < nodes_.size(); ++v) {
    if (assignment[v] < 0 || assignment[v] >= nodes_[v].costs.size())
      throw SolverError("assignment picks candidate " + std::to_string(assignment[v]) + " for node '" +
                        nodes_[v].name + "', which has " + std::to_string(nodes_[v].costs.size()));
    total += nodes_[v].costs[assignment[v]];
  }
  for (const Edge& edge : edges_) total += (*edge.costs)(assignment[edge.from], assignment[edge.to]);
  return total;
}

double Problem::log10_search_space() const {
  double total = 0;
  for (const Node& node : nodes_) total += std::log10(static_cast<double>(node.costs.size()));
  return total;
}

}  // namespace layoutopt::solvers
