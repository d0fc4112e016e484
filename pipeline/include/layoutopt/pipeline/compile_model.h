#pragma once
// `layoutopt compile` as one library call: a prepared model and its schedule compiled ahead
// of time into an artifact folder (kernels/network/ahead_of_time.h), with progress on the
// usual reporter. The kernels are generated for this host's CPU, so a plan made on another
// CPU is refused: its tuned knobs and layouts were chosen for that one.

#include <filesystem>
#include <string>

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/network/ahead_of_time.h"
#include "layoutopt/kernels/network/network_schedule.h"

namespace layoutopt::pipeline {

struct CompileRequest {
  const graph::Graph& graph;  ///< prepared for inference (graph::prepare_for_inference)
  kernels::NetworkSchedule schedule;
  std::string plan_target;    ///< the target string of the plan; empty for the default schedule
  std::filesystem::path directory;
  int threads = 0;            ///< the artifact's default thread count; 0: OpenMP's default here
  bool quiet = false;
  /// Run independent steps side by side where this host's step times say it pays: the
  /// network is JIT-compiled and profiled with `threads` threads and with one first
  /// (costs::plan_side_by_side), and the artifact carries the forks.
  bool side_by_side = false;
  bool force = false;               ///< replace an artifact already in `directory`
  std::string force_hint = "--force";  ///< how the caller's user says `force`, for the refusal
};

/// Throws std::runtime_error before any work for an artifact already in the folder without
/// `force` (check_artifact_writable) or a plan made on another CPU; kernels::KernelError as
/// compile_ahead_of_time does. A failed compile leaves the folder as it was.
[[nodiscard]] kernels::AheadOfTimeResult compile_model(const CompileRequest& request);

}  // namespace layoutopt::pipeline
