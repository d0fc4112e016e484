#include "pbqp/fusion.h"

#include <algorithm>
#include <array>
#include <numeric>

#include "pbqp/exact_component.h"
#include "pbqp/local_search.h"

namespace layoutopt::solvers::pbqp {

namespace {

// Candidates kept per node, most first: the largest restriction whose tables fit is used.
// Two always keeps binary nodes fully open.
constexpr std::array kWidths{4, 3, 2};

// Each alive node's candidates, best reparametrised cost first.
CandidateSets ranked_candidates(const PbqpGraph& graph, const DualBound& dual) {
  CandidateSets ranked(graph.size());
  for (int v = 0; v < graph.size(); ++v) {
    if (!graph.alive(v)) continue;
    const Vector costs = dual.node_costs(v);
    ranked[v].resize(static_cast<size_t>(costs.size()));
    std::iota(ranked[v].begin(), ranked[v].end(), 0);
    std::ranges::stable_sort(ranked[v], [&](int a, int b) { return costs[a] < costs[b]; });
  }
  return ranked;
}

// The first `width` of each ranking, plus the incumbent's choice so it stays reachable.
CandidateSets restriction(const PbqpGraph& graph, const CandidateSets& ranked, int width,
                          const Assignment& assignment) {
  CandidateSets allowed(graph.size());
  for (int v = 0; v < graph.size(); ++v) {
    if (!graph.alive(v)) continue;
    const auto kept = std::min(static_cast<size_t>(width), ranked[v].size());
    allowed[v].assign(ranked[v].begin(), ranked[v].begin() + static_cast<std::ptrdiff_t>(kept));
    const int current = assignment[graph.origin(v)];
    if (std::ranges::find(allowed[v], current) == allowed[v].end()) allowed[v].push_back(current);
  }
  return allowed;
}

}  // namespace

bool fuse_with_dual(const PbqpGraph& graph, const DualBound& dual, double max_entries, Assignment& assignment) {
  const CandidateSets ranked = ranked_candidates(graph, dual);
  for (int width : kWidths) {
    Assignment trial = assignment;
    const auto optimum = solve_restricted(graph, restriction(graph, ranked, width, assignment), max_entries, trial);
    if (!optimum) continue;  // too wide: try fewer candidates per node
    if (!(*optimum < graph_cost(graph, assignment))) return false;
    assignment = std::move(trial);
    return true;
  }
  return false;
}

Cost improve_with_dual(const PbqpGraph& graph, const DualBound& dual, double max_entries, Assignment& assignment) {
  Assignment rounded = assignment;
  dual.round(rounded);
  improve_locally(graph, rounded);
  if (graph_cost(graph, rounded) < graph_cost(graph, assignment)) assignment = std::move(rounded);
  if (fuse_with_dual(graph, dual, max_entries, assignment)) improve_locally(graph, assignment);
  return graph_cost(graph, assignment);
}

}  // namespace layoutopt::solvers::pbqp
