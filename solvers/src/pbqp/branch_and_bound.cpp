#include "pbqp/branch_and_bound.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "pbqp/dual_bound.h"
#include "pbqp/exact_component.h"
#include "pbqp/fusion.h"
#include "pbqp/local_search.h"
#include "pbqp/reductions.h"

namespace layoutopt::solvers::pbqp {

namespace {

// Dual passes per search node: the root gets more, since its bound is reported.
constexpr int kRootIterations = 200;
constexpr int kInnerIterations = 40;
// Components whose elimination takes at most this many min-plus terms (a few ms) are
// finished exactly.
constexpr double kEliminationWork = 1e7;
// The fusion heuristic's restricted elimination: small, since it runs at every search node.
constexpr double kFusionWork = 1e6;

// Sets candidates that cannot beat `limit` to infinity; fixes nodes left with one candidate.
// Returns whether anything was fixed (then the caller re-reduces instead of branching).
bool prune_candidates(PbqpGraph& graph, const DualBound& dual, Cost limit, ReductionTrace& trace) {
  const Cost threshold = prune_threshold(limit);
  std::vector<std::pair<int, int>> singles;
  for (int v = 0; v < graph.size(); ++v) {
    if (!graph.alive(v)) continue;
    int alive = 0;
    int last = 0;
    for (int i = 0; i < graph.candidates(v); ++i) {
      if (dual.bound() + dual.reduced_cost(v, i) >= threshold) graph.costs(v)[i] = kInfinity;
      if (is_finite(graph.costs(v)[i])) {
        ++alive;
        last = i;
      }
    }
    if (alive == 1) singles.emplace_back(v, last);
  }
  for (auto [v, i] : singles) fix_node(graph, v, i, trace);
  return !singles.empty();
}

// The node whose decision constrains the most: most edges, then most open candidates.
int branching_node(const PbqpGraph& graph) {
  int best = -1;
  long best_score = -1;
  for (int v = 0; v < graph.size(); ++v) {
    if (!graph.alive(v)) continue;
    const long open = (graph.costs(v).array() < kInfinity).count();
    const long score = graph.degree(v) * 1000L + open;
    if (score > best_score) {
      best_score = score;
      best = v;
    }
  }
  return best;
}

}  // namespace

// A connected component of the reduced graph: solved exactly, or bounded by its dual.
struct BranchAndBound::Part {
  PbqpGraph graph;
  std::optional<Cost> exact;
  std::unique_ptr<DualBound> dual;
  [[nodiscard]] Cost bound() const { return exact ? *exact : dual->bound(); }
};

Cost prune_threshold(Cost budget) {
  return is_finite(budget) ? budget - 1e-9 * (1.0 + std::abs(budget)) : kInfinity;
}

bool BranchAndBound::out_of_budget() {
  if (deadline_.passed() || (max_nodes_ != 0 && search_nodes_ >= max_nodes_)) complete_ = false;
  return !complete_;
}

std::optional<Cost> BranchAndBound::solve(PbqpGraph graph, Cost budget, Assignment& assignment) {
  if (out_of_budget()) return std::nullopt;
  ++search_nodes_;
  ReductionTrace trace;
  reduce(graph, trace);
  const Cost base = trace.constant();
  if (!(base < prune_threshold(budget))) return std::nullopt;

  // Narrow parts are finished exactly at once; the others get a dual bound first.
  std::vector<Part> parts;
  for (const std::vector<int>& component : graph.components()) parts.push_back({graph.extract(component)});
  Cost bounds = 0;
  for (Part& part : parts) {
    part.exact = solve_by_elimination(part.graph, kInfinity, kEliminationWork, assignment);
    if (!part.exact) {
      part.dual = std::make_unique<DualBound>(part.graph);
      part.dual->run(depth_ == 0 ? kRootIterations : kInnerIterations, budget - base, deadline_);
    }
    bounds += part.bound();
    if (!(base + bounds < prune_threshold(budget))) return std::nullopt;
  }
  if (depth_ == 0) root_bound_ = base + bounds;

  Cost total = base;
  Cost unsolved = bounds;
  for (Part& part : parts) {
    unsolved -= part.bound();
    if (part.exact) {
      total += *part.exact;
      continue;
    }
    const auto part_cost = solve_component(part.graph, *part.dual, budget - total - unsolved, assignment);
    if (!part_cost) return std::nullopt;
    total += *part_cost;
  }
  trace.back_propagate(assignment);
  return total;
}

std::optional<Cost> BranchAndBound::solve_component(PbqpGraph& graph, DualBound& dual, Cost budget,
                                                    Assignment& assignment) {
  Assignment incumbent = assignment;
  std::optional<Cost> best;
  Assignment best_assignment;
  const Cost cost = improve_with_dual(graph, dual, kFusionWork, incumbent);
  if (cost < prune_threshold(budget)) {
    best = cost;
    best_assignment = incumbent;
  }
  const Cost limit = best ? *best : budget;
  if (dual.bound() < prune_threshold(limit)) {
    ReductionTrace fixed;
    Assignment trial = assignment;
    std::optional<Cost> found;
    if (prune_candidates(graph, dual, limit, fixed)) {
      // Fixing decided nodes is exact; the rest is a smaller problem for solve().
      ++depth_;
      const auto rest = solve(graph, limit - fixed.constant(), trial);
      --depth_;
      if (rest) {
        fixed.back_propagate(trial);
        found = fixed.constant() + *rest;
      }
    } else if (auto exact = finish_exactly(graph, limit, trial)) {
      found = *exact;  // pruning made the component narrow enough for elimination
    } else {
      found = branch(graph, dual, limit, trial);
    }
    if (found) {
      best = found;
      best_assignment = std::move(trial);
    }
  }
  if (!best) return std::nullopt;
  assignment = std::move(best_assignment);
  return best;
}

std::optional<std::optional<Cost>> BranchAndBound::finish_exactly(const PbqpGraph& graph, Cost budget,
                                                                  Assignment& assignment) {
  Assignment trial = assignment;
  const std::optional<Cost> optimum = solve_by_elimination(graph, kInfinity, kEliminationWork, trial);
  if (!optimum) return std::nullopt;
  if (!(*optimum < prune_threshold(budget))) return std::optional<Cost>();
  assignment = std::move(trial);
  return optimum;
}

std::optional<Cost> BranchAndBound::branch(const PbqpGraph& graph, const DualBound& dual, Cost limit,
                                           Assignment& assignment) {
  const int x = branching_node(graph);
  std::vector<int> order;
  for (int i = 0; i < graph.candidates(x); ++i)
    if (is_finite(graph.costs(x)[i])) order.push_back(i);
  std::ranges::sort(order, [&](int a, int b) { return dual.reduced_cost(x, a) < dual.reduced_cost(x, b); });
  std::optional<Cost> best;
  Assignment best_assignment;
  for (int i : order) {
    if (dual.bound() + dual.reduced_cost(x, i) >= prune_threshold(limit)) break;
    PbqpGraph child = graph;
    ReductionTrace decision;
    fix_node(child, x, i, decision);
    Assignment trial = assignment;
    ++depth_;
    const auto rest = solve(std::move(child), limit - decision.constant(), trial);
    --depth_;
    if (rest) {
      decision.back_propagate(trial);
      best = limit = decision.constant() + *rest;
      best_assignment = std::move(trial);
    }
    if (out_of_budget()) break;
  }
  if (!best) return std::nullopt;
  assignment = std::move(best_assignment);
  return best;
}

}  // namespace layoutopt::solvers::pbqp
