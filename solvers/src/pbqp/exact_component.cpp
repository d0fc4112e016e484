#include "pbqp/exact_component.h"

#include <string>

#include "dp/elimination_order.h"
#include "dp/variable_elimination.h"

namespace layoutopt::solvers::pbqp {

namespace {

// The alive nodes with their open candidates (allowed and of finite cost), numbered
// compactly, remembering the way back.
struct OpenCandidates {
  std::vector<int> node_of;            // compact node -> local graph node
  std::vector<int> index;              // local graph node -> compact node (-1: not alive)
  std::vector<std::vector<int>> open;  // compact node -> open candidates (graph indices)
};

std::optional<OpenCandidates> open_candidates(const PbqpGraph& graph, const CandidateSets& allowed) {
  OpenCandidates result;
  result.index.assign(graph.size(), -1);
  for (int v = 0; v < graph.size(); ++v) {
    if (!graph.alive(v)) continue;
    std::vector<int> open;
    for (int i : allowed[v])
      if (is_finite(graph.costs(v)[i])) open.push_back(i);
    if (open.empty()) return std::nullopt;  // infeasible
    result.index[v] = static_cast<int>(result.node_of.size());
    result.node_of.push_back(v);
    result.open.push_back(std::move(open));
  }
  return result;
}

// Calls visit(a, b, e) once per alive edge e, from compact node a (its row end) to b.
template <class Visit>
void for_each_edge(const PbqpGraph& graph, const OpenCandidates& nodes, Visit visit) {
  for (size_t a = 0; a < nodes.node_of.size(); ++a) {
    const int v = nodes.node_of[a];
    for (int e : graph.incident(v))
      if (graph.edge(e).u == v) visit(static_cast<int>(a), nodes.index[graph.other(e, v)], e);
  }
}

dp::EliminationStructure structure_of(const PbqpGraph& graph, const OpenCandidates& nodes) {
  dp::EliminationStructure structure;
  for (const std::vector<int>& open : nodes.open) structure.candidates.push_back(static_cast<int>(open.size()));
  for_each_edge(graph, nodes, [&](int a, int b, int) { structure.edges.emplace_back(a, b); });
  return structure;
}

// Whether `open` is all of v's candidates in their own order, so v's tables need no copy.
bool all_open(const PbqpGraph& graph, int v, const std::vector<int>& open) {
  if (static_cast<int>(open.size()) != graph.candidates(v)) return false;
  for (size_t i = 0; i < open.size(); ++i)
    if (open[i] != static_cast<int>(i)) return false;
  return true;
}

// The restriction as a Problem. Built only once its plan fits, since it copies every edge
// table it narrows (tables of fully open nodes are shared, not copied).
Problem problem_of(const PbqpGraph& graph, const OpenCandidates& nodes) {
  Problem problem;
  for (size_t a = 0; a < nodes.node_of.size(); ++a) {
    const int v = nodes.node_of[a];
    problem.add_node("v" + std::to_string(v), graph.costs(v)(nodes.open[a]));
  }
  for_each_edge(graph, nodes, [&](int a, int b, int e) {
    const std::vector<int>& rows = nodes.open[a];
    const std::vector<int>& cols = nodes.open[b];
    const MatrixPtr& costs = graph.edge(e).costs;
    if (all_open(graph, nodes.node_of[a], rows) && all_open(graph, nodes.node_of[b], cols))
      problem.add_edge(a, b, costs);
    else
      problem.add_edge(a, b, std::make_shared<const Matrix>((*costs)(rows, cols)));
  });
  return problem;
}

// Restrictions are planned with min-fill alone (see solve_by_elimination).
dp::EliminationPlan plan_restriction(const dp::EliminationStructure& problem, double max_work) {
  return dp::plan_elimination(problem, dp::OrderHeuristic::min_fill, kInfinity, max_work);
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
  const std::optional<OpenCandidates> nodes = open_candidates(graph, allowed);
  if (!nodes) return kInfinity;
  const dp::EliminationPlan plan = plan_of(structure_of(graph, *nodes));
  if (!plan.within_budget) return std::nullopt;
  const Problem narrow = problem_of(graph, *nodes);
  dp::VariableElimination elimination(narrow);
  const Cost optimum = elimination.run(plan.order);
  const Assignment choices = elimination.recover(plan.order);
  for (size_t a = 0; a < choices.size(); ++a)
    assignment[graph.origin(nodes->node_of[a])] = nodes->open[a][choices[a]];
  return optimum;
}

}  // namespace

// A whole core may be large, so both orders are planned and the cheaper one runs; the
// fusion heuristic's restrictions are small and re-planned often, so min-fill alone serves.
std::optional<Cost> solve_by_elimination(const PbqpGraph& graph, double max_entries, double max_work,
                                         Assignment& assignment) {
  return eliminate_restricted(graph, all_candidates(graph), assignment, [&](const dp::EliminationStructure& problem) {
    return dp::plan_cheapest_elimination(problem, max_entries, max_work);
  });
}

std::optional<Cost> solve_restricted(const PbqpGraph& graph, const CandidateSets& allowed, double max_work,
                                     Assignment& assignment) {
  return eliminate_restricted(graph, allowed, assignment, [&](const dp::EliminationStructure& problem) {
    return plan_restriction(problem, max_work);
  });
}

bool restriction_fits(const PbqpGraph& graph, const CandidateSets& allowed, double max_work) {
  const std::optional<OpenCandidates> nodes = open_candidates(graph, allowed);
  return !nodes || plan_restriction(structure_of(graph, *nodes), max_work).within_budget;
}

}  // namespace layoutopt::solvers::pbqp
