#include "pbqp/dual_bound.h"

#include <algorithm>
#include <cmath>

namespace layoutopt::solvers::pbqp {

DualBound::DualBound(const PbqpGraph& graph) : graph_(graph), position_(graph.size(), -1) {
  unary_.resize(graph.size());
  for (int v = 0; v < graph.size(); ++v) {
    if (!graph.alive(v)) continue;
    position_[v] = static_cast<int>(order_.size());
    order_.push_back(v);
    unary_[v] = graph.costs(v);
  }
  int edge_slots = 0;
  for (int v : order_)
    for (int e : graph.incident(v)) edge_slots = std::max(edge_slots, e + 1);
  phi_u_.assign(edge_slots, Vector());
  phi_v_.assign(edge_slots, Vector());
  compressed_.assign(edge_slots, nullptr);
  for (int v : order_)
    for (int e : graph.incident(v)) {
      const GraphEdge& edge = graph.edge(e);
      phi_u_[e] = Vector::Zero(graph.candidates(edge.u));
      phi_v_[e] = Vector::Zero(graph.candidates(edge.v));
      auto& shared = by_matrix_[edge.costs.get()];
      if (!shared) shared = std::make_unique<CompressedMatrix>(*edge.costs);
      compressed_[e] = shared.get();
    }
  later_.assign(graph.size(), 0);
  for (int v : order_)
    for (int e : graph.incident(v)) later_[v] += position_[graph.other(e, v)] > position_[v];
  Eigen::Index widest = 0;
  for (int v : order_) widest = std::max(widest, unary_[v].size());
  for (Vector* workspace : {&fresh_, &total_}) workspace->resize(widest);
  bound_ = compute_bound();
}

Vector DualBound::node_costs(int v) const {
  Vector total = unary_[v];
  for (int e : graph_.incident(v)) total += phi(e, v);
  return total;
}

Eigen::VectorBlock<Vector> DualBound::node_costs_into(int v, Vector& workspace) const {
  auto total = workspace.head(unary_[v].size());
  total = unary_[v];
  for (int e : graph_.incident(v)) total += phi(e, v);
  return total;
}

// Moves edge e's min-marginals into node v: afterwards min_j c'_e(i, j) = 0 for every i.
void DualBound::collect(int e, int v) {
  const int w = graph_.other(e, v);
  const int count = graph_.candidates(v);
  double* fresh = fresh_.data();
  if (graph_.edge(e).u == v)
    compressed_[e]->min_minus_over_cols(phi(e, w).data(), unary_[w].data(), fresh);
  else
    compressed_[e]->min_minus_over_rows(phi(e, w).data(), unary_[w].data(), fresh);
  double* target = phi(e, v).data();
  double* own = unary_[v].data();
  for (int i = 0; i < count; ++i) {
    if (is_finite(fresh[i])) {
      target[i] = fresh[i];
    } else {
      own[i] = kInfinity;  // no finite partner on this edge: the candidate is dead
      target[i] = 0;
    }
  }
}

void DualBound::update_node(int v, bool forward) {
  for (int e : graph_.incident(v)) collect(e, v);
  const int later = later_[v];  // fixed pass order: counted once in the constructor
  const int ahead = forward ? later : graph_.degree(v) - later;
  const int behind = graph_.degree(v) - ahead;
  if (ahead == 0) return;
  const auto total = node_costs_into(v, total_);
  // TRW-S weights: each forward edge gets 1/max(ahead, behind) of the node's costs.
  const double share = 1.0 / std::max(ahead, behind);
  for (int e : graph_.incident(v)) {
    if ((position_[graph_.other(e, v)] > position_[v]) != forward) continue;
    Vector& target = phi(e, v);
    for (int i = 0; i < total.size(); ++i)
      if (is_finite(total[i])) target[i] -= share * total[i];
  }
}

Cost DualBound::compute_bound() const {
  Cost total = 0;
  for (int v : order_) {
    total += node_costs_into(v, total_).minCoeff();
    for (int e : graph_.incident(v)) {
      const GraphEdge& edge = graph_.edge(e);
      if (edge.u != v) continue;
      total += compressed_[e]->min_minus(phi_u_[e].data(), unary_[edge.u].data(), phi_v_[e].data(),
                                         unary_[edge.v].data());
    }
  }
  return total;
}

Cost DualBound::run(int max_iterations, Cost enough, const Deadline& deadline) {
  for (int iteration = 0; iteration < max_iterations && bound_ < enough; ++iteration) {
    for (int v : order_) update_node(v, true);
    for (auto v = order_.rbegin(); v != order_.rend(); ++v) update_node(*v, false);
    ++iterations_;
    const Cost previous = bound_;
    bound_ = compute_bound();
    if (!is_finite(bound_) || bound_ - previous <= 1e-9 * (1.0 + std::abs(bound_))) break;
    if (deadline.passed()) break;
  }
  return bound_;
}

Cost DualBound::reduced_cost(int v, int i) const {
  const Vector total = node_costs(v);
  return total[i] - total.minCoeff();
}

void DualBound::round(Assignment& assignment) const {
  std::vector<char> assigned(graph_.size(), 0);
  for (int v : order_) {
    Vector total = unary_[v];
    for (int e : graph_.incident(v)) {
      const int w = graph_.other(e, v);
      if (!assigned[w]) {
        total += phi(e, v);
        continue;
      }
      const int j = assignment[graph_.origin(w)];
      for (int i = 0; i < total.size(); ++i) total[i] += graph_.cost(e, v, i, j);
    }
    Eigen::Index best = 0;
    total.minCoeff(&best);
    assignment[graph_.origin(v)] = static_cast<int>(best);
    assigned[v] = 1;
  }
}

}  // namespace layoutopt::solvers::pbqp
