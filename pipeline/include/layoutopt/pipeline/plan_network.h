#pragma once
// The plan step, as `plan` runs it and `optimize` runs it after tuning and timing the
// transforms, so both write the same plan from the same files:
//
//   read records + transform table -> time the layout-flexible ops -> confirm the chosen
//   configs -> calibrate the chosen transforms -> plan -> write the plan
//
// Confirmation (config_confirmation.h) times again the tuned configs that the graph-tuned
// plan and the baselines of `optimize` choose: history best, and the default plan when the
// records price every task's default config (`optimize` measures them; `tune` alone does
// not). Then each row of `optimize` predicts from medians, and the graph-tuned plan weighs
// the default configs at the prices the default row pays. Calibration
// (network_calibration.h) prices the graph-tuned plan's transforms and nodes by their time
// inside its compiled network.
//
// Same files and policy, same steps: what can still tell two runs apart is the timings they
// take themselves (confirmation's, appended to the records; calibration's, kept in memory;
// and the layout-flexible ops', timed into their table once per step), which carry the
// host's noise.
// A network of convs only, planned with confirmation and calibration off, comes out the same
// plan every time.
//
// With modelled costs (the analytic model) nothing is read, confirmed or calibrated.

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "layoutopt/costs/config_confirmation.h"
#include "layoutopt/costs/network_calibration.h"
#include "layoutopt/pipeline/phase_times.h"
#include "layoutopt/graph/graph.h"
#include "layoutopt/pipeline/measurement_files.h"
#include "layoutopt/pipeline/measurements.h"
#include "layoutopt/pipeline/plan_policy.h"
#include "layoutopt/planning/planner.h"

namespace layoutopt::pipeline {

/// What the plan step reports while it runs, each right after its step (unset: nothing).
struct PlanEvents {
  std::function<void(const costs::ConfirmationReport&)> confirmed;
  std::function<void(const costs::CalibrationReport&)> calibrated;
};

struct PlanRequest {
  /// measured: the record log and transform table (MeasuredCostSource); modelled: the
  /// analytic model, a plan before any tuning.
  planning::CostKind costs = planning::CostKind::measured;
  /// measured: both files must exist; confirmation appends its timings to the records.
  MeasurementFiles files;
  /// Where the plan is written; empty: not written. Whether an existing file may be replaced
  /// is the caller's decision, made before the step starts.
  std::filesystem::path plan;
  /// MODEL as the user gave it, for hints in errors; empty: the graph's name.
  std::string model;
  /// Thread count of the measurements (resolve_threads), also used for every timing taken.
  int threads = 1;
  PlanPolicy policy;
  /// No progress output (warnings are still printed).
  bool quiet = false;
  /// Report unreadable lines, foreign records and unreadable table entries of the files;
  /// false when the caller read them already and reported them.
  bool report_file_issues = true;
  PlanEvents events;
};

struct PlanReport {
  /// The plan (as written), the solution and the problem's size.
  planning::PlanResult planned;
  /// Name of the cost source the plan came from.
  std::string cost_source;
  /// Set when the step confirmed (measured costs, policy.confirm_timings > 1).
  std::optional<costs::ConfirmationReport> confirmation;
  /// Set when the step calibrated (measured costs, policy.calibrate_rounds > 0).
  std::optional<costs::CalibrationReport> calibration;
  /// measured: the measurements as confirmation and calibration left them; null when modelled.
  std::unique_ptr<Measurements> measurements;
  /// measured: what confirmation and calibration found; the plan was made from
  /// measurements->cost_source(repricing).
  costs::Repricing repricing;
  /// measured: the wall time of the flexible-op timing, the checks and the final plan.
  PhaseTimes phases;
};

/// How a front end names the plan step's inputs, for its messages.
struct CostInputNames {
  std::string records = "--records";
  std::string transforms = "--transforms";
  std::string model_costs = "--model-costs";
};

/// The rule for what a plan is made from: measured costs need both files, modelled costs
/// (the analytic model) take neither, so no file a user gives is silently ignored. Throws
/// std::runtime_error naming the missing or extra inputs as `names` spells them.
void check_cost_inputs(planning::CostKind costs, const MeasurementFiles& files, const CostInputNames& names = {});

/// Runs the plan step on `graph` (prepared for inference). Throws std::runtime_error for a
/// missing file (naming the command that makes it), an untuned task or a missing transform
/// (naming the node or shape), and what planning, compiling and saving throw.
[[nodiscard]] PlanReport plan_network(const graph::Graph& graph, const PlanRequest& request);

}  // namespace layoutopt::pipeline
