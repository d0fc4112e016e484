#include "pbqp/local_search.h"

#include <algorithm>
#include <vector>

namespace layoutopt::solvers::pbqp {

namespace {

// Strictly better by more than rounding noise, so the search cannot cycle.
bool improves(Cost candidate, Cost current) { return candidate < current - 1e-12 * (1.0 + std::abs(candidate)); }

// Every alive node's local costs (node cost plus its edges to the neighbours' current
// choices), kept as a finite sum and a count of infinite terms per candidate so that one
// edge's term can be taken out exactly where it matters (an infinite term) and in O(1).
// The pair sweep needs "v's local costs without edge e" for every edge; recomputing them
// per edge costs O(degree * candidates) each, i.e. quadratic in the degree of hub nodes
// (concatenations, materialisation choices read by many layers). Caching per node and
// invalidating the neighbours of a node that moves keeps a sweep linear in the graph.
class LocalTables {
 public:
  LocalTables(const PbqpGraph& graph, const Assignment& assignment)
      : graph_(graph), assignment_(assignment), offset_(graph.size() + 1, 0), fresh_(graph.size(), 0) {
    for (int v = 0; v < graph.size(); ++v) offset_[v + 1] = offset_[v] + (graph.alive(v) ? graph.candidates(v) : 0);
    finite_.resize(offset_.back());
    infinite_.resize(offset_.back());
  }

  /// Local cost of candidate i of v, all edges but `skip` counted.
  [[nodiscard]] Cost without(int v, int skip, int i) {
    if (!fresh_[v]) fill(v);
    const Cost term = graph_.cost(skip, v, i, assignment_[graph_.origin(graph_.other(skip, v))]);
    const int k = offset_[v] + i;
    if (infinite_[k] - (is_finite(term) ? 0 : 1) > 0) return kInfinity;
    return is_finite(term) ? finite_[k] - term : finite_[k];
  }

  /// v's choice changed: its neighbours' tables are out of date.
  void moved(int v) {
    for (int e : graph_.incident(v)) fresh_[graph_.other(e, v)] = 0;
  }

 private:
  void fill(int v) {
    const int base = offset_[v];
    for (int i = 0; i < graph_.candidates(v); ++i) {
      const Cost c = graph_.costs(v)[i];
      finite_[base + i] = is_finite(c) ? c : 0;
      infinite_[base + i] = is_finite(c) ? 0 : 1;
    }
    for (int e : graph_.incident(v)) {
      const int j = assignment_[graph_.origin(graph_.other(e, v))];
      for (int i = 0; i < graph_.candidates(v); ++i) {
        const Cost c = graph_.cost(e, v, i, j);
        if (is_finite(c))
          finite_[base + i] += c;
        else
          ++infinite_[base + i];
      }
    }
    fresh_[v] = 1;
  }

  const PbqpGraph& graph_;
  const Assignment& assignment_;
  std::vector<int> offset_;  // first slot of each node's candidates
  std::vector<Cost> finite_;
  std::vector<int> infinite_;
  std::vector<char> fresh_;
};

int icm_sweep(const PbqpGraph& graph, Assignment& assignment) {
  int moves = 0;
  int widest = 0;
  for (int v = 0; v < graph.size(); ++v)
    if (graph.alive(v)) widest = std::max(widest, graph.candidates(v));
  std::vector<Cost> totals(static_cast<size_t>(widest));
  for (int v = 0; v < graph.size(); ++v) {
    if (!graph.alive(v)) continue;
    // Every candidate's local_cost() at once (the neighbours do not move meanwhile), edge by
    // edge: the same sums in the same order, but one pass over each edge's column or row.
    const int count = graph.candidates(v);
    for (int i = 0; i < count; ++i) totals[i] = graph.costs(v)[i];
    for (int e : graph.incident(v)) {
      const int j = assignment[graph.origin(graph.other(e, v))];
      for (int i = 0; i < count; ++i) totals[i] += graph.cost(e, v, i, j);
    }
    int& choice = assignment[graph.origin(v)];
    Cost current = totals[choice];
    for (int i = 0; i < count; ++i) {
      const Cost alternative = totals[i];
      if (improves(alternative, current)) {
        current = alternative;
        choice = i;
        ++moves;
      }
    }
  }
  return moves;
}

// Least entry of each edge's matrix (by edge id), computed on first use and kept for all
// the sweeps of one improve_locally() call: with it, pair_sweep() skips the rows of the joint
// scan that cannot beat the current pair.
class EdgeMinima {
 public:
  explicit EdgeMinima(const PbqpGraph& graph) {
    int slots = 0;
    for (int v = 0; v < graph.size(); ++v)
      for (int e : graph.incident(v)) slots = std::max(slots, e + 1);
    minima_.assign(static_cast<size_t>(slots), 0);
    known_.assign(static_cast<size_t>(slots), 0);
  }
  [[nodiscard]] Cost of(const PbqpGraph& graph, int e) {
    if (!known_[e]) {
      minima_[e] = graph.edge(e).costs->minCoeff();
      known_[e] = 1;
    }
    return minima_[e];
  }

 private:
  std::vector<Cost> minima_;
  std::vector<char> known_;
};

int pair_sweep(const PbqpGraph& graph, Assignment& assignment, EdgeMinima& edge_minima) {
  int moves = 0;
  LocalTables tables(graph, assignment);
  int widest = 0;
  for (int v = 0; v < graph.size(); ++v)
    if (graph.alive(v)) widest = std::max(widest, graph.candidates(v));
  Vector own_v(widest);
  Vector own_w(widest);
  for (int v = 0; v < graph.size(); ++v) {
    if (!graph.alive(v)) continue;
    for (int e : graph.incident(v)) {
      const int w = graph.other(e, v);
      if (w < v) continue;  // each edge once
      int& a = assignment[graph.origin(v)];
      int& b = assignment[graph.origin(w)];
      // Costs of each end without the shared edge, so the joint scan is just k*k additions.
      for (int i = 0; i < graph.candidates(v); ++i) own_v[i] = tables.without(v, e, i);
      Cost least_w = kInfinity;
      for (int j = 0; j < graph.candidates(w); ++j) {
        own_w[j] = tables.without(w, e, j);
        least_w = std::min(least_w, own_w[j]);
      }
      const Cost least_edge = edge_minima.of(graph, e);
      // The edge's matrix, looked up once: graph.cost(e, v, i, j) without the per-entry
      // indirections (the joint scan is the sweep's inner loop).
      const Matrix& shared = *graph.edge(e).costs;
      const bool v_rows = graph.edge(e).u == v;
      auto joint = [&](int i, int j) { return own_v[i] + own_w[j] + (v_rows ? shared(i, j) : shared(j, i)); };
      Cost current = joint(a, b);
      int best_i = a;
      int best_j = b;
      const int count_v = graph.candidates(v);
      const int count_w = graph.candidates(w);
      for (int i = 0; i < count_v; ++i) {
        // Floating-point addition is monotone, so no pair in this row costs less than this;
        // a row that cannot go below `current` cannot improve on it (improves() needs less).
        if (own_v[i] + least_w + least_edge >= current) continue;
        for (int j = 0; j < count_w; ++j)
          if (const Cost c = joint(i, j); improves(c, current)) {
            current = c;
            best_i = i;
            best_j = j;
          }
      }
      if (best_i != a || best_j != b) {
        if (best_i != a) tables.moved(v);
        if (best_j != b) tables.moved(w);
        a = best_i;
        b = best_j;
        ++moves;
      }
    }
  }
  return moves;
}

}  // namespace

int improve_locally(const PbqpGraph& graph, Assignment& assignment, int max_rounds) {
  int total = 0;
  EdgeMinima edge_minima(graph);
  for (int round = 0; round < max_rounds; ++round) {
    int moves = 0;
    while (int m = icm_sweep(graph, assignment)) {
      moves += m;
      if (moves > 100 * graph.size()) break;  // guard against pathological ping-pong
    }
    moves += pair_sweep(graph, assignment, edge_minima);
    total += moves;
    if (moves == 0) break;
  }
  return total;
}

Cost graph_cost(const PbqpGraph& graph, const Assignment& assignment) {
  Cost total = 0;
  for (int v = 0; v < graph.size(); ++v) {
    if (!graph.alive(v)) continue;
    const int i = assignment[graph.origin(v)];
    total += graph.costs(v)[i];
    for (int e : graph.incident(v))
      if (graph.edge(e).u == v) total += graph.cost(e, v, i, assignment[graph.origin(graph.other(e, v))]);
  }
  return total;
}

}  // namespace layoutopt::solvers::pbqp
