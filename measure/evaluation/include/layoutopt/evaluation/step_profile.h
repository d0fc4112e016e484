#pragma once
// A profiled run of a compiled network beside its plan: each step's measured time next to the
// plan's price for it, joined by value (the node a step runs; the tensor and layout a transform
// makes), and summed per step type (kind and operator) for the prediction check. One reading
// for every front end that shows a profile.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "layoutopt/costs/network_timing.h"
#include "layoutopt/evaluation/prediction_check.h"
#include "layoutopt/kernels/network/compiled_network.h"
#include "layoutopt/planning/plan.h"

namespace layoutopt::evaluation {

/// One step's share of the median profiled run, beside the plan's prediction for it.
struct StepTime {
  const kernels::NetworkStep* step = nullptr;
  double measured_ms = 0;
  std::optional<double> predicted_ms;  ///< none: the plan prices nothing for this step (or there is no plan)
  /// The threads' mean time in the step outside its kernel bodies (costs::NetworkProfile::
  /// wait_ms); none where nothing was recorded (a transform, a reference step, a skipped concat).
  std::optional<double> wait_ms;
};

/// What the threads of a profiled run spend outside kernel bodies (StepProfile::waiting).
struct ThreadWaiting {
  double wait_ms = 0;          ///< summed over the steps that recorded it, per thread
  double recorded_ms = 0;      ///< those steps' share of the run
  size_t unrecorded_steps = 0; ///< steps without a figure (transforms, reference steps, skipped concats)
};

struct StepProfile {
  std::vector<StepTime> steps;  ///< in program order
  double run_ms = 0;            ///< median of the profiled runs' step sums
  bool planned = false;         ///< whether predictions came from a plan

  /// The steps summed per type (step_type), in the order of the type names.
  [[nodiscard]] std::vector<StepTypeTotals> types() const;
  /// Each node's steps summed (transforms, which run no node, are left out).
  [[nodiscard]] std::map<graph::NodeId, double> node_ms() const;
  /// The steps' waiting summed: how much of a run the threads idle between and inside steps.
  [[nodiscard]] ThreadWaiting waiting() const;
};

/// What a step's time is totalled under: "transform", or its kind and kernel ("kernel conv2d",
/// "kernel winograd_conv2d", "fallback pad"; the operator where the step has no kernel kind,
/// "kernel transpose"), so that many small steps of one kind show up together.
[[nodiscard]] std::string step_type(const kernels::NetworkStep& step);

/// Joins `measured` (profile_network of `steps`' network) with `plan`'s prices: a node's
/// step gets its plan node's time (plans list nodes in graph order), an inserted transform
/// the time of the plan's transform of that tensor into that layout. `plan` may be null.
[[nodiscard]] StepProfile profile_against_plan(const std::vector<kernels::NetworkStep>& steps,
                                               const costs::NetworkProfile& measured, const planning::Plan* plan);

}  // namespace layoutopt::evaluation
