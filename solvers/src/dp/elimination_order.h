#pragma once
// Elimination orders for exact variable elimination (internal).
//
// An order is a tree decomposition in disguise: eliminating v connects all its remaining
// neighbours (fill-in edges), and the table built for v spans those neighbours. Greedy
// heuristics keep tables small: min-fill adds the fewest fill edges (ties: smallest table),
// min-degree builds the smallest table (ties: fewest fill edges). Sizes are weighted by the
// candidate counts, so a 30-candidate neighbour counts more than a 2-candidate one.
// The plan is made on the graph alone, before any table exists, so dp can refuse an
// instance that does not fit its memory budget without allocating.

#include <cstddef>
#include <utility>
#include <vector>

#include "layoutopt/solvers/problem.h"

namespace layoutopt::solvers::dp {

enum class OrderHeuristic { min_fill, min_degree };

/// What planning reads of a problem: which nodes interact and how many candidates each has,
/// no costs. A caller can so plan a restricted problem before building any of its tables.
struct EliminationStructure {
  std::vector<int> candidates;              ///< per node
  std::vector<std::pair<int, int>> edges;   ///< distinct node pairs

  [[nodiscard]] static EliminationStructure of(const Problem& problem);
};

struct EliminationPlan {
  std::vector<int> order;
  int induced_width = 0;           ///< most neighbours any node had when eliminated
  double peak_table_entries = 0;   ///< entries of the largest table
  double total_table_entries = 0;  ///< entries of all tables, the problem's own included
  /// Most memory dp holds at once, in doubles: the factors not yet consumed, the table being
  /// built, and the back-tracking choices (2 bytes per message entry) of every variable so far.
  /// Transient re-ordered copies of a bucket's factors come on top; they are freed per step.
  double peak_memory_entries = 0;
  double work = 0;                 ///< min-plus terms: each table's entries x the eliminated node's candidates
  bool within_budget = true;       ///< false: planning stopped when the budget was exceeded
};

/// Stops early, with within_budget = false and the figures reached so far, as soon as dp
/// would hold more than `max_entries` doubles at once (peak_memory_entries) or the work
/// would pass `max_work` (for callers that bound time rather than memory).
[[nodiscard]] EliminationPlan plan_elimination(const EliminationStructure& problem, OrderHeuristic heuristic,
                                               double max_entries, double max_work = kInfinity);

/// Plans both heuristics and returns the one with less work (min-fill's when neither fits):
/// planning is cheap next to eliminating, and neither order wins everywhere (min-fill keeps
/// the fill low, min-degree the tables small).
[[nodiscard]] EliminationPlan plan_cheapest_elimination(const EliminationStructure& problem, double max_entries,
                                                        double max_work = kInfinity);

/// The SolverError dp raises for a plan that is not within budget: names the width
/// reached, the table sizes and the budget, and suggests pbqp.
[[noreturn]] void refuse(const EliminationPlan& plan, double max_entries);

}  // namespace layoutopt::solvers::dp
