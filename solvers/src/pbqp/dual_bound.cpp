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
  Eigen::Index widest = 0;
  for (int v : order_) widest = std::max(widest, unary_[v].size());
  for (Vector* workspace : {&other_, &fresh_, &own_}) workspace->resize(widest);
  bound_ = compute_bound();
}

Vector DualBound::node_costs(int v) const {
  Vector total = unary_[v];
  for (int e : graph_.incident(v)) total += phi(e, v);
  return total;
}

Eigen::VectorBlock<Vector> DualBound::negated_masked(int e, int v, Vector& workspace) const {
  const Vector& message = phi(e, v);
  auto out = workspace.head(message.size());
  for (int i = 0; i < message.size(); ++i) out[i] = is_finite(unary_[v][i]) ? -message[i] : kInfinity;
  return out;
}

// Moves edge e's min-marginals into node v: afterwards min_j c'_e(i, j) = 0 for every i.
void DualBound::collect(int e, int v) {
  const auto other = negated_masked(e, graph_.other(e, v), other_);
  auto fresh = fresh_.head(graph_.candidates(v));
  if (graph_.edge(e).u == v)
    compressed_[e]->min_plus_over_cols(other, fresh);
  else
    compressed_[e]->min_plus_over_rows(other, fresh);
  Vector& target = phi(e, v);
  for (int i = 0; i < fresh.size(); ++i) {
    if (is_finite(fresh[i])) {
      target[i] = fresh[i];
    } else {
      unary_[v][i] = kInfinity;  // no finite partner on this edge: the candidate is dead
      target[i] = 0;
    }
  }
}

void DualBound::update_node(int v, bool forward) {
  for (int e : graph_.incident(v)) collect(e, v);
  int ahead = 0;
  for (int e : graph_.incident(v)) ahead += (position_[graph_.other(e, v)] > position_[v]) == forward;
  const int behind = graph_.degree(v) - ahead;
  if (ahead == 0) return;
  const Vector total = node_costs(v);
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
    total += node_costs(v).minCoeff();
    for (int e : graph_.incident(v)) {
      const GraphEdge& edge = graph_.edge(e);
      if (edge.u != v) continue;
      total += compressed_[e]->min_plus(negated_masked(e, edge.u, own_), negated_masked(e, edge.v, other_));
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
