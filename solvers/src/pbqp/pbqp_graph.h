#pragma once
// The mutable working graph that PBQP reductions, bounds and branch-and-bound operate on
// (internal). Nodes have local ids; origin(v) maps back to the Problem's node id, so a
// subgraph extracted for one connected component still reports global choices.
// Edge matrices stay shared and immutable: merging two edges builds a new matrix.

#include <cassert>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "layoutopt/solvers/problem.h"

namespace layoutopt::solvers::pbqp {

struct GraphEdge {
  int u = 0;
  int v = 0;
  MatrixPtr costs;  ///< rows: candidates of u
  bool alive = true;
};

class PbqpGraph {
 public:
  explicit PbqpGraph(const Problem& problem);

  /// The component made of `nodes` (local ids of this graph), with fresh local ids.
  [[nodiscard]] PbqpGraph extract(const std::vector<int>& nodes) const;

  [[nodiscard]] int size() const { return static_cast<int>(costs_.size()); }
  [[nodiscard]] bool alive(int v) const { return alive_[v]; }
  [[nodiscard]] int alive_count() const { return alive_count_; }
  [[nodiscard]] int origin(int v) const { return origin_[v]; }
  [[nodiscard]] const Vector& costs(int v) const { return costs_[v]; }
  [[nodiscard]] Vector& costs(int v) { return costs_[v]; }
  [[nodiscard]] int candidates(int v) const { return static_cast<int>(costs_[v].size()); }

  [[nodiscard]] const std::vector<int>& incident(int v) const { return incident_[v]; }
  [[nodiscard]] int degree(int v) const { return static_cast<int>(incident_[v].size()); }
  [[nodiscard]] const GraphEdge& edge(int e) const { return edges_[e]; }
  [[nodiscard]] int other(int e, int v) const {
    assert((edges_[e].u == v || edges_[e].v == v) && "other(e, v): v is not an end of edge e");
    return edges_[e].u == v ? edges_[e].v : edges_[e].u;
  }
  /// Cost of edge e when `v` takes candidate i and the other end takes j.
  [[nodiscard]] Cost cost(int e, int v, int i, int j) const {
    const GraphEdge& edge = edges_[e];
    assert((edge.u == v || edge.v == v) && "cost(e, v, ...): v is not an end of edge e");
    return edge.u == v ? (*edge.costs)(i, j) : (*edge.costs)(j, i);
  }
  /// Edge e's matrix with rows indexed by v's candidates.
  [[nodiscard]] Matrix oriented(int e, int v) const;

  /// Adds costs between a and b (rows: a), merging with an existing a-b edge.
  void add_edge(int a, int b, const Matrix& costs);
  void remove_edge(int e);
  /// Removes a node together with its remaining edges.
  void remove_node(int v);

  /// Connected components of the alive nodes, each a list of local ids.
  [[nodiscard]] std::vector<std::vector<int>> components() const;

 private:
  PbqpGraph() = default;
  static uint64_t pair_key(int a, int b);

  std::vector<Vector> costs_;
  std::vector<int> origin_;
  std::vector<char> alive_;
  std::vector<std::vector<int>> incident_;
  std::vector<GraphEdge> edges_;
  std::unordered_map<uint64_t, int> edge_by_pair_;
  int alive_count_ = 0;
};

}  // namespace layoutopt::solvers::pbqp
