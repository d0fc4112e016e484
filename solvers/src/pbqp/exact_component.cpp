#include "pbqp/exact_component.h"

#include "dp/elimination_order.h"
#include "dp/variable_elimination.h"

namespace layoutopt::solvers::pbqp {

namespace {

// The alive nodes as a Problem over their open candidates, remembering both mappings.
struct CompactProblem {
  Problem problem;
  std::vector<int> node_of;               // compact node -> local graph node
  std::vector<std::vector<int>> open;     // compact node -> open candidates (graph indices)
};

std::optional<CompactProblem> compact(const PbqpGraph& graph, const CandidateSets& allowed) {
  CompactProblem result;
  std::vector<int> index(graph.size(), -1);
  for (int v = 0; v < graph.size(); ++v) {
    if (!graph.alive(v)) continue;
    std::vector<int> open;
    for (int i : allowed[v])
      if (is_finite(graph.costs(v)[i])) open.push_back(i);
    if (open.empty()) return std::nullopt;  // infeasible
    Vector costs(static_cast<Eigen::Index>(open.size()));
    for (size_t k = 0; k < open.size(); ++k) costs[static_cast<Eigen::Index>(k)] = graph.costs(v)[open[k]];
    index[v] = static_cast<int>(result.node_of.size());
    result.problem.add_node("v" + std::to_string(v), std::move(costs));
    result.node_of.push_back(v);
    result.open.push_back(std::move(open));
  }
  for (size_t a = 0; a < result.node_of.size(); ++a) {
    const int v = result.node_of[a];
    for (int e : graph.incident(v)) {
      const int w = graph.other(e, v);
      if (graph.edge(e).u != v) continue;
      const std::vector<int>& rows = result.open[a];
      const std::vector<int>& cols = result.open[index[w]];
      Matrix costs(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(cols.size()));
      for (size_t r = 0; r < rows.size(); ++r)
        for (size_t c = 0; c < cols.size(); ++c)
          costs(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = graph.cost(e, v, rows[r], cols[c]);
      result.problem.add_edge(static_cast<int>(a), index[w], std::make_shared<const Matrix>(std::move(costs)));
    }
  }
  return result;
}

CandidateSets all_candidates(const PbqpGraph& graph) {
  CandidateSets sets(graph.size());
  for (int v = 0; v < graph.size(); ++v)
    for (int i = 0; i < graph.candidates(v); ++i) sets[v].push_back(i);
  return sets;
}

// Eliminates the restriction along `plan_of(problem)`'s order; nullopt when that plan is not
// within its budget.
template <class Planner>
std::optional<Cost> eliminate_restricted(const PbqpGraph& graph, const CandidateSets& allowed, Assignment& assignment,
                                         Planner plan_of) {
  const std::optional<CompactProblem> narrow = compact(graph, allowed);
  if (!narrow) return kInfinity;
  const dp::EliminationPlan plan = plan_of(narrow->problem);
  if (!plan.within_budget) return std::nullopt;
  dp::VariableElimination elimination(narrow->problem);
  const Cost optimum = elimination.run(plan.order);
  const Assignment choices = elimination.recover(plan.order);
  for (size_t a = 0; a < choices.size(); ++a)
    assignment[graph.origin(narrow->node_of[a])] = narrow->open[a][choices[a]];
  return optimum;
}

}  // namespace

// A whole core may be large, so both orders are planned and the cheaper one runs; the
// fusion heuristic's restrictions are small and re-planned often, so min-fill alone serves.
std::optional<Cost> solve_by_elimination(const PbqpGraph& graph, double max_entries, double max_work,
                                         Assignment& assignment) {
  return eliminate_restricted(graph, all_candidates(graph), assignment, [&](const Problem& problem) {
    return dp::plan_cheapest_elimination(problem, max_entries, max_work);
  });
}

std::optional<Cost> solve_restricted(const PbqpGraph& graph, const CandidateSets& allowed, double max_work,
                                     Assignment& assignment) {
  return eliminate_restricted(graph, allowed, assignment, [&](const Problem& problem) {
    return dp::plan_elimination(problem, dp::OrderHeuristic::min_fill, kInfinity, max_work);
  });
}

}  // namespace layoutopt::solvers::pbqp
