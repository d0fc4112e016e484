#include "pbqp/local_search.h"

namespace layoutopt::solvers::pbqp {

namespace {

// Strictly better by more than rounding noise, so the search cannot cycle.
bool improves(Cost candidate, Cost current) { return candidate < current - 1e-12 * (1.0 + std::abs(candidate)); }

// Cost of v taking candidate i, all other choices fixed; `skip` excludes one edge.
Cost local_cost(const PbqpGraph& graph, const Assignment& assignment, int v, int i, int skip = -1) {
  Cost total = graph.costs(v)[i];
  for (int e : graph.incident(v))
    if (e != skip) total += graph.cost(e, v, i, assignment[graph.origin(graph.other(e, v))]);
  return total;
}

Vector local_costs(const PbqpGraph& graph, const Assignment& assignment, int v, int skip) {
  Vector result(graph.candidates(v));
  for (int i = 0; i < graph.candidates(v); ++i) result[i] = local_cost(graph, assignment, v, i, skip);
  return result;
}

int icm_sweep(const PbqpGraph& graph, Assignment& assignment) {
  int moves = 0;
  for (int v = 0; v < graph.size(); ++v) {
    if (!graph.alive(v)) continue;
    int& choice = assignment[graph.origin(v)];
    Cost current = local_cost(graph, assignment, v, choice);
    for (int i = 0; i < graph.candidates(v); ++i) {
      const Cost alternative = local_cost(graph, assignment, v, i);
      if (improves(alternative, current)) {
        current = alternative;
        choice = i;
        ++moves;
      }
    }
  }
  return moves;
}

int pair_sweep(const PbqpGraph& graph, Assignment& assignment) {
  int moves = 0;
  for (int v = 0; v < graph.size(); ++v) {
    if (!graph.alive(v)) continue;
    for (int e : graph.incident(v)) {
      const int w = graph.other(e, v);
      if (w < v) continue;  // each edge once
      int& a = assignment[graph.origin(v)];
      int& b = assignment[graph.origin(w)];
      // Costs of each end without the shared edge, so the joint scan is just k*k additions.
      const Vector own_v = local_costs(graph, assignment, v, e);
      const Vector own_w = local_costs(graph, assignment, w, e);
      auto joint = [&](int i, int j) { return own_v[i] + own_w[j] + graph.cost(e, v, i, j); };
      Cost current = joint(a, b);
      int best_i = a;
      int best_j = b;
      for (int i = 0; i < graph.candidates(v); ++i)
        for (int j = 0; j < graph.candidates(w); ++j)
          if (const Cost c = joint(i, j); improves(c, current)) {
            current = c;
            best_i = i;
            best_j = j;
          }
      if (best_i != a || best_j != b) {
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
  for (int round = 0; round < max_rounds; ++round) {
    int moves = 0;
    while (int m = icm_sweep(graph, assignment)) {
      moves += m;
      if (moves > 100 * graph.size()) break;  // guard against pathological ping-pong
    }
    moves += pair_sweep(graph, assignment);
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
