#include "pbqp/pbqp_graph.h"

#include <algorithm>
#include <cassert>

namespace layoutopt::solvers::pbqp {

PbqpGraph::PbqpGraph(const Problem& problem) {
  const auto n = static_cast<int>(problem.node_count());
  costs_.reserve(n);
  for (int v = 0; v < n; ++v) {
    costs_.push_back(problem.node(v).costs);
    origin_.push_back(v);
  }
  alive_.assign(n, 1);
  incident_.resize(n);
  alive_count_ = n;
  for (const Edge& edge : problem.edges()) {
    assert(edge.costs->rows() == costs_[edge.from].size() && edge.costs->cols() == costs_[edge.to].size() &&
           "edge matrix is not (candidates of from) x (candidates of to)");
    const int id = static_cast<int>(edges_.size());
    edges_.push_back({edge.from, edge.to, edge.costs, true});
    incident_[edge.from].push_back(id);
    incident_[edge.to].push_back(id);
    edge_by_pair_.emplace(pair_key(edge.from, edge.to), id);
  }
}

uint64_t PbqpGraph::pair_key(int a, int b) {
  return static_cast<uint64_t>(std::min(a, b)) << 32 | static_cast<uint64_t>(std::max(a, b));
}

PbqpGraph PbqpGraph::extract(const std::vector<int>& nodes) const {
  PbqpGraph part;
  std::unordered_map<int, int> local;
  for (int v : nodes) {
    local.emplace(v, static_cast<int>(part.costs_.size()));
    part.costs_.push_back(costs_[v]);
    part.origin_.push_back(origin_[v]);
  }
  const auto n = static_cast<int>(nodes.size());
  part.alive_.assign(n, 1);
  part.incident_.resize(n);
  part.alive_count_ = n;
  for (int v : nodes) {
    for (int e : incident_[v]) {
      const GraphEdge& edge = edges_[e];
      if (edge.u != v) continue;  // copy each edge once, from its u end
      const auto other = local.find(edge.v);
      if (other == local.end()) continue;
      const int id = static_cast<int>(part.edges_.size());
      const int a = local.at(edge.u);
      part.edges_.push_back({a, other->second, edge.costs, true});
      part.incident_[a].push_back(id);
      part.incident_[other->second].push_back(id);
      part.edge_by_pair_.emplace(pair_key(a, other->second), id);
    }
  }
  return part;
}

Matrix PbqpGraph::oriented(int e, int v) const {
  const GraphEdge& edge = edges_[e];
  assert((edge.u == v || edge.v == v) && "oriented(e, v): v is not an end of edge e");
  return edge.u == v ? Matrix(*edge.costs) : Matrix(edge.costs->transpose());
}

void PbqpGraph::add_edge(int a, int b, const Matrix& costs) {
  assert(a != b && "add_edge: self-edge");
  assert(alive_[a] && alive_[b] && "add_edge: an end was removed");
  assert(costs.rows() == candidates(a) && costs.cols() == candidates(b) &&
         "add_edge: matrix is not (candidates of a) x (candidates of b)");
  const auto it = edge_by_pair_.find(pair_key(a, b));
  if (it != edge_by_pair_.end()) {
    GraphEdge& edge = edges_[it->second];
    const Matrix merged = edge.u == a ? Matrix(*edge.costs + costs) : Matrix(*edge.costs + costs.transpose());
    edge.costs = std::make_shared<const Matrix>(merged);
    return;
  }
  const int id = static_cast<int>(edges_.size());
  edges_.push_back({a, b, std::make_shared<const Matrix>(costs), true});
  incident_[a].push_back(id);
  incident_[b].push_back(id);
  edge_by_pair_.emplace(pair_key(a, b), id);
}

void PbqpGraph::remove_edge(int e) {
  GraphEdge& edge = edges_[e];
  if (!edge.alive) return;
  edge.alive = false;
  for (int end : {edge.u, edge.v}) std::erase(incident_[end], e);
  edge_by_pair_.erase(pair_key(edge.u, edge.v));
}

void PbqpGraph::remove_node(int v) {
  assert(alive_[v] && "remove_node: already removed");
  while (!incident_[v].empty()) remove_edge(incident_[v].back());
  alive_[v] = 0;
  --alive_count_;
}

std::vector<std::vector<int>> PbqpGraph::components() const {
  std::vector<std::vector<int>> result;
  std::vector<char> seen(alive_.size(), 0);
  for (int start = 0; start < size(); ++start) {
    if (!alive_[start] || seen[start]) continue;
    std::vector<int> component{start};
    seen[start] = 1;
    for (size_t next = 0; next < component.size(); ++next) {
      for (int e : incident_[component[next]]) {
        const int w = other(e, component[next]);
        if (!seen[w]) {
          seen[w] = 1;
          component.push_back(w);
        }
      }
    }
    result.push_back(std::move(component));
  }
  return result;
}

}  // namespace layoutopt::solvers::pbqp
