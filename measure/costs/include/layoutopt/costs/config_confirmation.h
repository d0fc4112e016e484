#pragma once
// confirm_chosen_configs: times the tuned configs a plan chose again, re-planning in
// between, until the plan only chooses configs timed at least `timings` times.
//
// Why: a tuning log holds one timing per config, and the tuner keeps the fastest of
// thousands of them. On a shared machine that winner is partly the luckiest timing, so a
// plan summing winners predicts the network too fast, and the more configs tuned the worse
// (evidence: docs/design/confirmation.md). A config timed several times costs the median of
// its timings (layout_candidates.h), which the selection cannot bias. A re-timed config may
// lose to another, so the plan is made again and its new choices re-timed in turn.
//
// Configs chosen with their timings already taken are spot-checked: timed once more per
// confirmation, since their timings may come from an earlier state of the host. A config
// costs the median of its latest timings (layout_candidates.h), so one spot check moves
// nothing on its own. But when a task's spot check drifts from its neighbours' by more than
// `stale_drift` (drift_check.h; a memory-bound layer follows the host's memory bandwidth
// while its compute-bound neighbours hold still), its chosen configs are timed `timings`
// times afresh. If their fresh timings drift as far (and off their logged time), the task is
// stale: every other config of it costs the task's drift times its timings (a StaleTask of
// the Repricing, repricing.h) until a plan chooses it and it is timed afresh in turn, the
// drift being the median over the task's configs timed afresh so far. Its rivals'
// logged times are as stale as the chosen one's; left as they were, the solver would swap in
// a stale-fast rival each round (a task can have hundreds of layout pairs), and re-timing
// them all costs hundreds of timings. Evidence: docs/design/stale-records.md.
//
// Re-timings are ordinary records, appended through the sink, so the next plan reuses them.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/tuning/measure_record.h"
#include "layoutopt/costs/measured_cost_source.h"
#include "layoutopt/costs/repricing.h"
#include "layoutopt/tuning/measurer.h"
#include "layoutopt/planning/plan.h"
#include "layoutopt/timing/progress.h"
#include "layoutopt/tuning/tuning_session.h"

namespace layoutopt::costs {

struct ConfirmationOptions {
  std::string target;  ///< of the records read and written
  int timings = 3;     ///< timings a chosen config needs, its tuning trial included
  int max_rounds = 5;  ///< plans made at most
  /// A task whose spot checks drifted from their neighbours' by more than this factor either
  /// way is stale (see above).
  double stale_drift = 1.25;
};

struct ConfirmationReport {
  int rounds = 0;           ///< plans made
  int64_t configs = 0;      ///< configs timed again
  int64_t spot_checks = 0;  ///< chosen configs that had their timings and were timed once more
  std::vector<std::string> stale_tasks;  ///< first nodes of the tasks found stale
  int64_t new_timings = 0;  ///< timings added to the log
  bool confirmed = false;   ///< the last plan chose only configs with enough timings
  /// Median over the configs timed again of (the median of their new timings / their logged
  /// cost): how far the log's timings were off; 1 when nothing was timed again.
  double median_drift = 1.0;
  /// The source's repricing with the stale tasks found: what the next source is built with,
  /// over the records as confirmation left them.
  Repricing repricing;

  /// One line for people: "N chosen configs timed again (S spot checks, T timings, P plans;
  /// stale tasks: K); new / logged time, median D", saying so when it stopped before
  /// every choice had its timings.
  [[nodiscard]] std::string summary() const;
};

/// Plans from the source it is given (several when more than one will be run, e.g. graph
/// tuned and history best).
using Replan = std::function<std::vector<planning::Plan>(const MeasuredCostSource&)>;

/// Each round: `replan` plans from `costs` rebuilt with what the rounds so far learned;
/// spot-check the chosen tuned configs that have their timings but were not timed in this
/// call; time the ones that lack timings, and a stale task's choices afresh, in passes over
/// them (one timing of each per pass, so a config's timings are spread over the round);
/// append the records to `records` and `sink`, and rebuild the source over them with the
/// stale tasks repriced. Stops when a plan needs no new timing or after max_rounds plans.
/// `costs` must have been built over `records`.
[[nodiscard]] ConfirmationReport confirm_chosen_configs(const graph::Graph& graph, const MeasuredCostSource& costs,
                                                        std::vector<tuning::MeasureRecord>& records,
                                                        tuning::Measurer& measurer, const tuning::RecordSink& sink,
                                                        const Replan& replan, const ConfirmationOptions& options,
                                                        timing::ProgressReporter* progress = nullptr);

}  // namespace layoutopt::costs
