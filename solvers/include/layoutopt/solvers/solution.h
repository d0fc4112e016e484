#pragma once
// What a solver is asked (SolveOptions) and what it answers (Solution).

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>

#include "layoutopt/solvers/cost.h"

namespace layoutopt::solvers {

/// A time limit that never expires: with it (and max_search_nodes), a solve's answer,
/// optimality flag included, does not depend on how fast or loaded the machine is.
inline constexpr double kNoTimeLimit = std::numeric_limits<double>::infinity();

struct SolveOptions {
  double time_limit_seconds = 10.0;             ///< soft limit for anytime solvers (pbqp)
  /// pbqp: the branch-and-bound stops after this many search nodes (0: no limit), like at
  /// the time limit; the deterministic limit that tests use.
  uint64_t max_search_nodes = 0;
  size_t memory_budget_bytes = size_t{1} << 30;  ///< dp refuses above this, before allocating
  bool branch_and_bound = true;                  ///< pbqp: search for a proof of optimality
  /// pbqp: search for the proof however long it takes (up to the time limit). Without it
  /// the proof gets a bounded share of time after the answer (10x the answer's time, 0.2 to
  /// 1 s) unless the core is cheap to search, and an unproven answer reports its gap.
  bool prove_optimality = false;
  uint64_t exact_max_assignments = 10'000'000;   ///< exact refuses larger search spaces
  /// dp, pbqp: first drop every candidate some other candidate of its node dominates
  /// (dead-end elimination, candidate_reduction.h). Preserves the optimum and usually
  /// leaves far fewer candidates; off only to study the solvers on the problem as given.
  bool drop_dominated = true;
};

struct Solution {
  Assignment assignment;                  ///< one candidate per node
  Cost cost = kInfinity;                  ///< objective of `assignment`
  bool feasible = false;                  ///< cost is finite
  bool optimal = false;                   ///< proven: no better assignment exists
  std::optional<Cost> lower_bound;        ///< proven bound on the optimum, when available
  double seconds = 0.0;                   ///< wall time of solve()
  std::map<std::string, double> stats;    ///< solver-specific figures (width, nodes, ...)

  /// Relative optimality gap (cost - bound) / |cost|; nullopt without a finite bound.
  [[nodiscard]] std::optional<double> gap() const;
};

}  // namespace layoutopt::solvers
