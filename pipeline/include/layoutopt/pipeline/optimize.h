#pragma once
// The main job, `layoutopt optimize`, as one call:
//
//   [1/4] tune the graph's tasks under the budget, resuming from the record log
//   [2/4] measure the untuned default configs the log lacks
//   [3/4] time the layout transforms the plans may need, extending the table
//   [4/4] the plan step (plan_network.h: confirm, calibrate, plan, write the plan), then
//         plan, compile and time side by side, in alternating rounds,
//           default, history best, graph tuned (DP), graph tuned (PBQP)
//
// Records and the transform table only ever grow. The plan written is the plan step's,
// which `layoutopt plan` writes from the same files and policy: the graph-tuned plan of DP,
// or of PBQP when DP refuses the problem.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "layoutopt/evaluation/end_to_end.h"
#include "layoutopt/graph/graph.h"
#include "layoutopt/tuning/measurer.h"
#include "layoutopt/pipeline/budget.h"
#include "layoutopt/pipeline/measurement_files.h"
#include "layoutopt/pipeline/plan_network.h"
#include "layoutopt/pipeline/plan_policy.h"

namespace layoutopt::pipeline {

struct OptimizeRequest {
  /// MODEL as the user gave it, for hints; empty: the graph's name.
  std::string model;
  /// Resumed and appended to (records), extended (table); their folders must exist.
  MeasurementFiles files;
  /// Where the plan is written; whether an existing one may be replaced is the caller's
  /// decision, made before the job starts.
  std::filesystem::path plan;
  /// Thread count of every measurement and run (resolve_threads).
  int threads = 1;
  TuningBudget budget = TuningBudget::of(BudgetLevel::quick);
  /// The plan step's policy; its solver plans the graph-tuned row the step writes.
  PlanPolicy plan_policy;
  /// Alternating rounds of the comparison, each timing every variant once.
  int rounds = 5;
  /// Least timed milliseconds of one variant in one round (costs::network_policy).
  double round_ms = 300.0;
  /// No progress output (warnings are still printed).
  bool quiet = false;
};

struct OptimizeReport {
  std::string target;  ///< tuning::host_target(threads)
  int threads = 1;
  /// The plan step; its plan is the one written to OptimizeRequest::plan.
  PlanReport plan;
  /// Name of the comparison row the written plan was planned as ("graph tuned (DP)").
  std::string plan_variant;
  /// The comparison's rows in evaluation::standard_variants() order, without refused ones.
  std::vector<evaluation::VariantResult> rows;
  /// Why a row was not run ("graph tuned (DP): dp refuses ...").
  std::vector<std::string> refused;
  /// Wall time of every phase, the plan step's included.
  PhaseTimes phases;
};

/// The request of the plan step optimize_model runs after tuning and timing the transforms.
[[nodiscard]] PlanRequest plan_step_request(const OptimizeRequest& request);

/// Runs the main job on `graph` (prepared for inference), on request.threads threads.
/// Progress goes to stderr. Throws what tuning, timing, planning and compiling throw, and
/// std::runtime_error when no variant could be planned and compiled: a comparison without
/// rows has nothing to report.
[[nodiscard]] OptimizeReport optimize_model(const graph::Graph& graph, const OptimizeRequest& request);

/// The same with the configs of tuning, default configs and layout variants, and the passes
/// of the transforms, measured by `measurers` (a measurement farm spreading them over hosts)
/// instead of this process.
[[nodiscard]] OptimizeReport optimize_model(const graph::Graph& graph, const OptimizeRequest& request,
                                            const Measurers& measurers);

/// The first of rows[0..i) that runs the same schedule as rows[i], or null: rows with one
/// schedule compile to the same network, so what sets their times apart is noise.
[[nodiscard]] const evaluation::VariantResult* earlier_row_with_same_plan(
    const std::vector<evaluation::VariantResult>& rows, size_t i);

/// A comparison row that beat the written plan's row in every round.
struct FasterThanWritten {
  const evaluation::VariantResult* faster = nullptr;
  const evaluation::VariantResult* written = nullptr;  ///< the row of OptimizeReport::plan_variant
};

/// The row, other than the written plan's and not running its schedule, whose slowest round
/// ran faster than the written plan's fastest: faster beyond the rounds' noise. The fastest
/// such row; nullopt when none, or when the written plan's row is missing. Why: the written
/// plan is what `layoutopt plan` would write from the same files, and a user should hear
/// when the comparison found a faster one.
[[nodiscard]] std::optional<FasterThanWritten> row_faster_than_written(const OptimizeReport& report);

}  // namespace layoutopt::pipeline
