#include "pbqp/fusion.h"

#include <algorithm>
#include <array>
#include <numeric>

#include "pbqp/exact_component.h"
#include "pbqp/local_search.h"

namespace layoutopt::solvers::pbqp {

namespace {

// Candidates kept per node from each ranking, most first: the largest restriction whose
// elimination work fits is used. Two always keeps binary nodes fully open.
constexpr std::array kWidths{6, 5, 4, 3, 2};

// Each alive node's candidates, cheapest first under `costs_of(v)`.
template <class CostsOf>
CandidateSets ranked_by(const PbqpGraph& graph, CostsOf costs_of) {
  CandidateSets ranked(graph.size());
  for (int v = 0; v < graph.size(); ++v) {
    if (!graph.alive(v)) continue;
    const Vector costs = costs_of(v);
    ranked[v].resize(static_cast<size_t>(costs.size()));
    std::iota(ranked[v].begin(), ranked[v].end(), 0);
    std::ranges::stable_sort(ranked[v], [&](int a, int b) { return costs[a] < costs[b]; });
  }
  return ranked;
}

// Two rankings that fail in different places. The dual's reparametrised costs are right
// where the LP relaxation is tight; where it is loose (many short cycles, as in randomly
// wired cores) they tie or mislead, and a node's own costs (with what the reductions folded
// into them) still point at the candidates a region switches to.
std::array<CandidateSets, 2> rankings(const PbqpGraph& graph, const DualBound& dual) {
  return {ranked_by(graph, [&](int v) { return dual.node_costs(v); }),
          ranked_by(graph, [&](int v) { return graph.costs(v); })};
}

// The first `width` of each ranking, plus the incumbent's choice so it stays reachable.
CandidateSets restriction(const PbqpGraph& graph, const std::array<CandidateSets, 2>& ranked, int width,
                          const Assignment& assignment) {
  CandidateSets allowed(graph.size());
  for (int v = 0; v < graph.size(); ++v) {
    if (!graph.alive(v)) continue;
    auto keep = [&](int candidate) {
      if (std::ranges::find(allowed[v], candidate) == allowed[v].end()) allowed[v].push_back(candidate);
    };
    for (const CandidateSets& ranking : ranked) {
      const auto kept = std::min(static_cast<size_t>(width), ranking[v].size());
      std::for_each_n(ranking[v].begin(), kept, keep);
    }
    keep(assignment[graph.origin(v)]);
  }
  return allowed;
}

}  // namespace

bool fuse_with_dual(const PbqpGraph& graph, const DualBound& dual, double max_work, Assignment& assignment) {
  const std::array<CandidateSets, 2> ranked = rankings(graph, dual);
  for (size_t tried = 0; tried < kWidths.size(); ++tried) {
    // Narrower restrictions only drop candidates, so when the narrowest does not fit none
    // does. Checked once the two widest have failed: on wide cores (grids, dense blocks) that
    // saves the plans of the widths between, while a core where a wide restriction fits (whose
    // plan runs to the end, so costs more than a failing one) never pays for the check.
    if (tried == 2 && !restriction_fits(graph, restriction(graph, ranked, kWidths.back(), assignment), max_work))
      return false;
    const int width = kWidths[tried];
    Assignment trial = assignment;
    const auto optimum = solve_restricted(graph, restriction(graph, ranked, width, assignment), max_work, trial);
    if (!optimum) continue;  // too wide: try fewer candidates per node
    if (!(*optimum < graph_cost(graph, assignment))) return false;
    assignment = std::move(trial);
    return true;
  }
  return false;
}

Cost improve_with_dual(const PbqpGraph& graph, const DualBound& dual, double max_work, Assignment& assignment) {
  Assignment rounded = assignment;
  dual.round(rounded);
  improve_locally(graph, rounded);
  if (graph_cost(graph, rounded) < graph_cost(graph, assignment)) assignment = std::move(rounded);
  if (fuse_with_dual(graph, dual, max_work, assignment)) improve_locally(graph, assignment);
  return graph_cost(graph, assignment);
}

}  // namespace layoutopt::solvers::pbqp
