#include "pbqp/reductions.h"

#include <algorithm>
#include <cassert>
#include <deque>

namespace layoutopt::solvers::pbqp {

namespace {

Elimination snapshot(const PbqpGraph& graph, int x) {
  Elimination step;
  step.node = graph.origin(x);
  step.costs = graph.costs(x);
  for (int e : graph.incident(x)) {
    const GraphEdge& edge = graph.edge(e);
    step.links.push_back({graph.origin(graph.other(e, x)), edge.costs, edge.u == x});
  }
  return step;
}

void apply_r0(PbqpGraph& graph, int x, ReductionTrace& trace) {
  assert(graph.alive(x) && graph.degree(x) == 0 && "R0 reduces a node of degree 0");
  trace.add_constant(graph.costs(x).minCoeff());
  trace.record(snapshot(graph, x));
  graph.remove_node(x);
}

void apply_r1(PbqpGraph& graph, int x, ReductionTrace& trace) {
  assert(graph.alive(x) && graph.degree(x) == 1 && "RI reduces a node of degree 1");
  const int e = graph.incident(x).front();
  const int y = graph.other(e, x);
  const Matrix m = graph.oriented(e, x);  // rows: x
  assert(m.rows() == graph.candidates(x) && m.cols() == graph.candidates(y) && "RI: edge matrix dimensions");
  // Column j: the best x can do once y picks j.
  const Vector folded = (m.colwise() + graph.costs(x)).colwise().minCoeff().transpose();
  trace.record(snapshot(graph, x));
  graph.costs(y) += folded;
  graph.remove_node(x);
}

void apply_r2(PbqpGraph& graph, int x, ReductionTrace& trace) {
  assert(graph.alive(x) && graph.degree(x) == 2 && "RII reduces a node of degree 2");
  const int ey = graph.incident(x)[0];
  const int ez = graph.incident(x)[1];
  const int y = graph.other(ey, x);
  const int z = graph.other(ez, x);
  // A pair of nodes has at most one edge, so x's two edges lead to two different nodes.
  assert(y != z && "RII: both edges lead to the same neighbour");
  const Matrix a = graph.oriented(ey, x);  // rows: x, cols: y
  const Matrix b = graph.oriented(ez, x);  // rows: x, cols: z
  assert(a.rows() == graph.candidates(x) && b.rows() == graph.candidates(x) && "RII: edge matrix rows");
  assert(a.cols() == graph.candidates(y) && b.cols() == graph.candidates(z) && "RII: edge matrix columns");
  Matrix folded(a.cols(), b.cols());
  for (Eigen::Index j = 0; j < a.cols(); ++j) {
    const Vector via = a.col(j) + graph.costs(x);
    folded.row(j) = (b.colwise() + via).colwise().minCoeff();
  }
  trace.record(snapshot(graph, x));
  graph.remove_node(x);
  graph.add_edge(y, z, folded);
}

// Whether every node left has degree >= 3: what reduce() promises.
[[maybe_unused]] bool irreducible(const PbqpGraph& graph) {
  for (int v = 0; v < graph.size(); ++v)
    if (graph.alive(v) && graph.degree(v) <= 2) return false;
  return true;
}

// Reduces from an initial work queue of low-degree nodes, in queue order.
ReductionCounts reduce_from(PbqpGraph& graph, ReductionTrace& trace, std::deque<int> work) {
  ReductionCounts counts;
  while (!work.empty()) {
    const int x = work.front();
    work.pop_front();
    if (!graph.alive(x) || graph.degree(x) > 2) continue;
    std::vector<int> neighbors;
    for (int e : graph.incident(x)) neighbors.push_back(graph.other(e, x));
    switch (graph.degree(x)) {
      case 0: apply_r0(graph, x, trace); ++counts.r0; break;
      case 1: apply_r1(graph, x, trace); ++counts.r1; break;
      default: apply_r2(graph, x, trace); ++counts.r2; break;
    }
    for (int w : neighbors)
      if (graph.degree(w) <= 2) work.push_back(w);
  }
  return counts;
}

}  // namespace

ReductionCounts reduce(PbqpGraph& graph, ReductionTrace& trace) {
  std::deque<int> work;
  for (int v = 0; v < graph.size(); ++v)
    if (graph.alive(v) && graph.degree(v) <= 2) work.push_back(v);
  const ReductionCounts counts = reduce_from(graph, trace, std::move(work));
  assert(irreducible(graph) && "reduce left a node of degree <= 2");
  return counts;
}

ReductionCounts reduce_around(PbqpGraph& graph, ReductionTrace& trace, std::vector<int> touched) {
  // Index order without duplicates: the queue reduce()'s full scan would have built.
  // std::unique rather than std::ranges::unique: clang 14 (the fuzz build) cannot compile
  // the latter against GCC 12's libstdc++.
  std::ranges::sort(touched);
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  std::deque<int> work;
  for (int v : touched)
    if (graph.alive(v) && graph.degree(v) <= 2) work.push_back(v);
  return reduce_from(graph, trace, std::move(work));
}

void fix_node(PbqpGraph& graph, int v, int candidate, ReductionTrace& trace) {
  assert(graph.alive(v) && 0 <= candidate && candidate < graph.candidates(v) && "fix_node: no such candidate");
  for (int e : graph.incident(v)) {
    const int w = graph.other(e, v);
    const GraphEdge& edge = graph.edge(e);
    if (edge.u == v)
      graph.costs(w) += edge.costs->row(candidate).transpose();
    else
      graph.costs(w) += edge.costs->col(candidate);
  }
  Elimination step;
  step.node = graph.origin(v);
  step.fixed = candidate;
  trace.add_constant(graph.costs(v)[candidate]);
  trace.record(std::move(step));
  graph.remove_node(v);
}

}  // namespace layoutopt::solvers::pbqp
