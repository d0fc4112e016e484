#pragma once
// The end-to-end comparison of `layoutopt optimize`, the table of TVM's graph-tuner RFC with
// every row measured in the same run:
//
//   default           untuned default kernels in one fixed layout policy (baseline_costs.h)
//   history best      each op's fastest tuned kernel, transforms where neighbours disagree
//   graph tuned (DP)  the whole-network optimum of measured node and transform costs
//   graph tuned (PBQP) the same problem solved by PBQP
//
// Each row is planned from its cost source, compiled into a network and timed; the plan's
// objective is the row's predicted latency, so predicted and measured can be compared.

#include <map>
#include <string>
#include <vector>

#include "layoutopt/evaluation/compute_limit.h"
#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/network/compiled_network.h"
#include "layoutopt/planning/cost_source.h"
#include "layoutopt/planning/planner.h"
#include "layoutopt/timing/statistics.h"
#include "layoutopt/timing/timing.h"
#include "layoutopt/tuning/default_configs.h"

namespace layoutopt::evaluation {

enum class VariantCosts { default_schedules, fastest_kernels, measured };

struct Variant {
  std::string name;     ///< "default", "history best", "graph tuned (DP)", ...
  VariantCosts costs;
  planning::SolverChoice solver;  ///< dp, pbqp, or automatic (baselines: DP when it fits, else PBQP)
};

/// The four rows above, in that order.
[[nodiscard]] const std::vector<Variant>& standard_variants();

struct VariantResult {
  Variant variant;
  planning::PlanResult planned;
  kernels::CompileSummary compiled;
  /// Summary of the per-round medians (median of medians, their quartiles); count = rounds.
  timing::Summary measured;
  int runs = 0;  ///< timed runs over all rounds, re-timed ones included
  /// Alternating rounds timed again because some variant's kept rounds swung above
  /// timing::kRoundSwingTolerance (timing/steady_rounds.h); the same for every variant.
  int retimed_rounds = 0;
  bool rounds_steady = true;  ///< the kept rounds agree within the tolerance
  /// The compute limit as the row's plan runs, at the FMA peak measured after the rounds.
  ComputeLimit limit;
  [[nodiscard]] double predicted_ms() const { return planned.plan.predicted_ms; }
  /// The median run's fraction of the compute limit (1: every FMA unit busy throughout).
  [[nodiscard]] double limit_fraction() const { return limit.fraction_of(measured.median); }
};

struct EndToEndOptions {
  planning::PlannerOptions planner;   ///< target, costs label, time limit (solver is the variant's)
  timing::TimingPolicy timing;      ///< one round of one network (network_policy)
  int rounds = 5;           ///< alternating rounds over all variants (the latest kept)
  int max_retimed_rounds = 3;  ///< extra alternating rounds at most while the kept ones swing
};

/// The plan of one variant: `measured` restricted as the variant's costs say, solved by its
/// solver. Throws solvers::SolverError when that solver refuses the problem.
[[nodiscard]] planning::PlanResult plan_variant(const graph::Graph& graph, const Variant& variant, const planning::CostSource& measured,
                                      const tuning::DefaultSeconds& default_seconds,
                                      const planning::PlannerOptions& options);

/// Plans every variant with the cost source its costs name (`measured` is the measured
/// source, `default_seconds` the default configs' times by task key) and compiles it; then
/// times all networks side by side in alternating rounds (A, B, C, D, A, B, ...), so drift
/// and other processes hit every variant alike; while any variant's latest `rounds` round
/// medians swing above timing::kRoundSwingTolerance, times another alternating round (at most
/// max_retimed_rounds) and keeps the latest. A variant whose solver refuses the problem
/// (DP on a graph too wide for its tables) is left out and its reason added to `refused`.
/// Throws std::runtime_error (planning) or kernels::KernelError (compiling).
[[nodiscard]] std::vector<VariantResult> evaluate_variants(const graph::Graph& graph, const std::vector<Variant>& variants,
                                                           const planning::CostSource& measured,
                                                           const tuning::DefaultSeconds& default_seconds,
                                                           const EndToEndOptions& options,
                                                           std::vector<std::string>* refused = nullptr);

}  // namespace layoutopt::evaluation
