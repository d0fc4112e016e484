#include "layoutopt/solvers/candidate_reduction.h"

#include "layoutopt/solvers/matrix_pool.h"

namespace layoutopt::solvers {

namespace {

// Costs of candidate i of node v on edge e, one entry per candidate of the other end.
Vector edge_row(const Problem& problem, int e, int v, int i) {
  const Edge& edge = problem.edges()[e];
  return edge.from == v ? Vector(edge.costs->row(i).transpose()) : Vector(edge.costs->col(i));
}

bool no_worse(const Problem& problem, int v, int a, int b) {
  if (problem.node(v).costs[a] > problem.node(v).costs[b]) return false;
  for (int e : problem.incident(v))
    if ((edge_row(problem, e, v, a).array() > edge_row(problem, e, v, b).array()).any()) return false;
  return true;
}

// b is removable when some a beats it everywhere; among equal candidates the first stays.
// Removed candidates are dominated by a kept one because "a < b, or a equal and earlier" is
// a strict order on a finite set.
std::vector<int> undominated(const Problem& problem, int v) {
  std::vector<int> kept;
  const int count = problem.candidates(v);
  for (int b = 0; b < count; ++b) {
    bool dominated = false;
    for (int a = 0; a < count && !dominated; ++a) {
      if (a == b || !no_worse(problem, v, a, b)) continue;
      dominated = a < b || !no_worse(problem, v, b, a);
    }
    if (!dominated) kept.push_back(b);
  }
  return kept;
}

Vector select(const Vector& values, const std::vector<int>& indices) {
  Vector result(static_cast<Eigen::Index>(indices.size()));
  for (size_t k = 0; k < indices.size(); ++k) result[static_cast<Eigen::Index>(k)] = values[indices[k]];
  return result;
}

}  // namespace

CandidateReduction eliminate_dominated_candidates(const Problem& problem) {
  CandidateReduction result;
  const auto n = static_cast<int>(problem.node_count());
  for (int v = 0; v < n; ++v) {
    result.kept.push_back(undominated(problem, v));
    result.original_candidates.push_back(problem.candidates(v));
    const Node& node = problem.node(v);
    std::vector<std::string> labels;
    for (int i : result.kept.back())
      if (!node.labels.empty()) labels.push_back(node.labels[i]);
    result.reduced.add_node(node.name, select(node.costs, result.kept.back()), std::move(labels));
  }
  MatrixPool pool;  // shared input matrices reduced the same way stay shared
  for (const Edge& edge : problem.edges()) {
    const std::vector<int>& rows = result.kept[edge.from];
    const std::vector<int>& cols = result.kept[edge.to];
    Matrix costs(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(cols.size()));
    for (size_t r = 0; r < rows.size(); ++r)
      for (size_t c = 0; c < cols.size(); ++c)
        costs(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = (*edge.costs)(rows[r], cols[c]);
    result.reduced.add_edge(edge.from, edge.to, pool.intern(std::move(costs)));
  }
  return result;
}

Assignment CandidateReduction::expand(const Assignment& reduced_assignment) const {
  Assignment original;
  for (size_t v = 0; v < kept.size(); ++v) original.push_back(kept[v].at(reduced_assignment.at(v)));
  return original;
}

size_t CandidateReduction::removed_candidates() const {
  size_t removed = 0;
  for (size_t v = 0; v < kept.size(); ++v)
    removed += static_cast<size_t>(original_candidates[v]) - kept[v].size();
  return removed;
}

}  // namespace layoutopt::solvers
