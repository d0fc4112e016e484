#include "pbqp/rn_heuristic.h"

#include <vector>

#include "pbqp/reductions.h"

namespace layoutopt::solvers::pbqp {

int select_rn_node(const PbqpGraph& graph) {
  int best = -1;
  for (int v = 0; v < graph.size(); ++v)
    if (graph.alive(v) && (best < 0 || graph.degree(v) > graph.degree(best))) best = v;
  return best;
}

int select_rn_candidate(const PbqpGraph& graph, int v) {
  int best = 0;
  Cost best_cost = kInfinity;
  for (int i = 0; i < graph.candidates(v); ++i) {
    Cost total = graph.costs(v)[i];
    for (int e : graph.incident(v)) {
      const int w = graph.other(e, v);
      Cost reachable = kInfinity;
      for (int j = 0; j < graph.candidates(w); ++j)
        reachable = std::min(reachable, graph.cost(e, v, i, j) + graph.costs(w)[j]);
      total += reachable;
    }
    if (total < best_cost) {
      best_cost = total;
      best = i;
    }
  }
  return best;
}

void solve_by_reduction(PbqpGraph graph, Assignment& assignment) {
  ReductionTrace trace;
  reduce(graph, trace);
  while (graph.alive_count() > 0) {
    const int v = select_rn_node(graph);
    // Only the fixed node's neighbours change degree: reduce around them.
    std::vector<int> touched;
    for (int e : graph.incident(v)) touched.push_back(graph.other(e, v));
    fix_node(graph, v, select_rn_candidate(graph, v), trace);
    reduce_around(graph, trace, std::move(touched));
  }
  trace.back_propagate(assignment);
}

}  // namespace layoutopt::solvers::pbqp
