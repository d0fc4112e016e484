#pragma once
// Prices that hold inside a compiled network: calibrate_in_network plans, compiles the plan,
// times each of its steps in the running network, reprices the plan's transforms and nodes
// by those times and plans again, until the plan chooses only transforms so timed.
//
// Why: the transform table and the tuning records time each transform and kernel alone
// (cost_policy.h): the source where a row-split producer leaves it, the destination in the
// last-level cache. Inside a network the source may sit in the other core's cache (a
// producer split by channel blocks) or in memory (a 112x112 map written two steps before),
// and the destination wherever the arena slot's last tenant left it, so a step's cost
// depends on where it runs. No one placement is right everywhere: a planner trusting the
// table buys more transforms than pay, and a plan priced alone predicts a run faster than it
// is. As with config confirmation (config_confirmation.h), the plan's own choices are the
// ones measured again: a transform the plan stops choosing costs nothing, one it never chose
// keeps the table's price; a node's candidates that never ran take the factor of the one
// that ran last (repricing.h). Evidence: docs/design/in-network-calibration.md.

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/network/compiled_network.h"
#include "layoutopt/costs/measured_cost_source.h"
#include "layoutopt/costs/repricing.h"
#include "layoutopt/planning/plan.h"
#include "layoutopt/timing/progress.h"
#include "layoutopt/costs/transform_table.h"

namespace layoutopt::costs {

/// Runs `network` `warmup` times, then `runs` times step by step on random inputs of
/// `graph`'s input shapes (twice or more, as calibrate_in_network profiles: the latest of
/// profiles that agree), and returns each transform key's time: the median over its steps
/// (a tensor transformed at several places) of each step's share of the median run
/// (network_timing.h).
[[nodiscard]] InNetworkTransformTimes time_transforms_in_network(kernels::CompiledNetwork& network,
                                                                 const graph::Graph& graph, int runs, int warmup = 3);

struct CalibrationOptions {
  int max_rounds = 4;      ///< plans compiled and timed at most
  int profiled_runs = 20;  ///< runs per round
};

/// What the first plan's steps were priced at and took in its network.
struct PricedAndTimed {
  double priced_ms = 0;
  double network_ms = 0;
};

struct CalibrationReport {
  int rounds = 0;                     ///< plans compiled and timed
  size_t transforms = 0;              ///< distinct transform keys timed in a network
  size_t nodes = 0;                   ///< nodes timed in a network
  bool settled = false;               ///< planning again returned the plan last timed
  PricedAndTimed first_transforms;    ///< the first plan's transforms (priced by the table)
  PricedAndTimed first_nodes;         ///< the first plan's nodes (priced by the records)
  /// The baseline plan's nodes, when one was timed: its faster timing.
  std::optional<PricedAndTimed> baseline_nodes;
  double untimed_factor = 1;          ///< what the transforms no network ran are scaled by
  /// Profiles taken again because a round's two profiles of its network swung above
  /// timing::kRoundSwingTolerance.
  int retimed_profiles = 0;
  /// Plans timed again because their steps that ran in an earlier timing ran slower as a
  /// whole than then, beyond timing::kRoundSwingTolerance (network_slowdown.h).
  int retimed_plans = 0;
  /// The source's repricing with the transforms and nodes timed in a network: what the next
  /// source is built with.
  Repricing repricing;
  /// ["the baseline plan's nodes: priced X ms, network Y ms; "] "R plans timed in the network; the first plan's nodes: priced X ms, network Y ms; its
  /// transforms: table X ms, network Y ms; T transforms timed, the others priced at Fx the
  /// table; P profiles timed again after a swing, Q plans after the whole network slowed".
  [[nodiscard]] std::string summary() const;
};

/// Each round: `replan` makes the plan from `costs` repriced with the in-network times so
/// far, its network is compiled and profiled on the calling thread's OpenMP team (twice, and
/// again while the two profiles' runs swing above timing::kRoundSwingTolerance, at most twice
/// more; the latest profile is used; and, while the steps that ran in an earlier timing ran
/// slower as a whole than then, timed again at most twice: network_slowdown.h), every
/// transform timed so far is priced by its in-network time and every node's candidates by
/// their in-network factors (repricing.h, InNetworkNode): the fastest of the rounds that
/// timed them. Why the fastest: a shared host's slow spells (docs/design/slow-spells.md) slow
/// memory-bound steps several-fold for minutes, and a spell over the later rounds would raise
/// the median in-network / table ratio that prices every untimed transform, so the last plan
/// would avoid transforms it should buy (evidence: docs/design/in-network-calibration.md).
/// Stops when planning again returns the plan last timed (every price it was chosen by is
/// then its own in-network timing), or after max_rounds.
/// A `baseline` plan (the untuned default's) is compiled and profiled so before the first
/// round and after the last: its nodes' candidates then carry their own in-network factors
/// (and only they: a node's other candidates take the factor of the last planned plan that
/// ran there), and where a config that won alone runs slower in the network than the
/// default, the plans choose the default (evidence: docs/design/in-network-calibration.md).
/// Throws what planning and compiling throw.
[[nodiscard]] CalibrationReport calibrate_in_network(const graph::Graph& graph, const MeasuredCostSource& costs,
                                                     const std::function<planning::Plan(const MeasuredCostSource&)>& replan,
                                                     const std::optional<planning::Plan>& baseline,
                                                     const CalibrationOptions& options,
                                                     timing::ProgressReporter* progress = nullptr);

}  // namespace layoutopt::costs
