#pragma once
// A layout-selection cost problem (a PBQP instance): decision nodes with a cost per
// candidate, and edges with a cost matrix per (source candidate, target candidate) pair.
// Objective: sum of the chosen node costs plus the chosen edge costs, each term once.
// Infinite entries forbid a choice. Edges added twice between the same pair of nodes (in
// either direction) are merged by adding their matrices, so every pair has at most one edge.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "layoutopt/solvers/cost.h"

namespace layoutopt::solvers {

using NodeId = int;

struct Node {
  std::string name;
  Vector costs;                     ///< one entry per candidate
  std::vector<std::string> labels;  ///< empty, or one human-readable label per candidate
};

struct Edge {
  NodeId from = 0;
  NodeId to = 0;
  MatrixPtr costs;  ///< rows: candidates of `from`, columns: candidates of `to`
};

class Problem {
 public:
  /// Adds a node; throws SolverError on a duplicate or empty name, no candidates, NaN costs
  /// or a label count that differs from the candidate count.
  NodeId add_node(std::string name, Vector costs, std::vector<std::string> labels = {});
  /// Adds (or merges into an existing) edge; throws SolverError on self-edges, unknown ids,
  /// wrong matrix sizes or NaN entries.
  void add_edge(NodeId from, NodeId to, MatrixPtr costs);
  void add_edge(std::string_view from, std::string_view to, Matrix costs);

  [[nodiscard]] size_t node_count() const { return nodes_.size(); }
  [[nodiscard]] size_t edge_count() const { return edges_.size(); }
  [[nodiscard]] const Node& node(NodeId id) const { return nodes_.at(id); }
  [[nodiscard]] const std::vector<Node>& nodes() const { return nodes_; }
  [[nodiscard]] const std::vector<Edge>& edges() const { return edges_; }
  [[nodiscard]] int candidates(NodeId id) const { return static_cast<int>(nodes_.at(id).costs.size()); }
  /// Edge indices touching a node.
  [[nodiscard]] const std::vector<int>& incident(NodeId id) const { return incident_.at(id); }

  [[nodiscard]] std::optional<NodeId> find(std::string_view name) const;
  /// Like find, but throws SolverError naming the unknown node.
  [[nodiscard]] NodeId id_of(std::string_view name) const;

  /// Total cost of an assignment (kInfinity if it uses a forbidden choice); throws
  /// SolverError when the assignment has the wrong length or an out-of-range candidate.
  [[nodiscard]] Cost evaluate(std::span<const int> assignment) const;
  /// log10 of the number of complete assignments.
  [[nodiscard]] double log10_search_space() const;

 private:
  static uint64_t pair_key(NodeId a, NodeId b);

  std::vector<Node> nodes_;
  std::vector<Edge> edges_;
  std::vector<std::vector<int>> incident_;
  std::unordered_map<std::string, NodeId> by_name_;
  std::unordered_map<uint64_t, int> edge_by_pair_;  // unordered pair -> edge index
};

}  // namespace layoutopt::solvers
