#pragma once
// JitSession: a model compiled with the JIT for its plan (or the default schedule), behind
// the interface of the runtime's Session (runtime/session.h): inputs(), outputs(), threads()
// and run() over caller-owned float buffers. A program can thus start from a model and a
// plan, as `layoutopt run` does, or from an ahead-of-time artifact, and run either the same
// way; with the same plan and thread count both compute bit for bit the same outputs.
//
//   JitSession session = JitSession::compile("resnet-18", {.plan = "plan.json", .threads = 2});
//   session.run(inputs, outputs);  // one view per tensor, canonical layout (NCHW, NC)

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/network/compiled_network.h"
#include "layoutopt/pipeline/model_options.h"
#include "layoutopt/runtime/network_spec.h"
#include "layoutopt/runtime/session.h"

namespace layoutopt::pipeline {

struct JitSessionOptions {
  /// Plan file (`layoutopt plan`, `optimize`), validated against the model; empty: the
  /// default schedule.
  std::filesystem::path plan;
  /// Batch of the network's inputs and seed of generated weights (zoo networks, files
  /// without weights); unset: not given (model_options.h: a file that fixes its batch
  /// refuses another one, and an option without effect is reported in warnings()).
  ModelOptions model;
  /// OpenMP threads of compilation and of each run; 0: OpenMP's default (resolve_threads).
  int threads = 0;
};

class JitSession {
 public:
  /// Loads MODEL (load_model: zoo name, .onnx or .json), prepares it for inference and
  /// compiles it. Throws graph::GraphError for a bad model, planning::PlanError for a plan
  /// that does not fit it, kernels::KernelError for a schedule that cannot be compiled.
  [[nodiscard]] static JitSession compile(const std::string& model, const JitSessionOptions& options = {});

  JitSession(JitSession&&) noexcept;
  JitSession& operator=(JitSession&&) noexcept;
  ~JitSession();

  [[nodiscard]] const std::vector<runtime::TensorSpec>& inputs() const;
  [[nodiscard]] const std::vector<runtime::TensorSpec>& outputs() const;
  [[nodiscard]] int threads() const;
  /// The graph as compiled (prepared for inference), for the reference executor.
  [[nodiscard]] const graph::Graph& graph() const;
  /// "plan.json (dp, measured costs, predicted 1.2 ms)" or "default schedule".
  [[nodiscard]] const std::string& schedule_source() const;
  /// Given model options that had no effect on the model, for the front end to show.
  [[nodiscard]] const std::vector<std::string>& warnings() const;
  [[nodiscard]] const kernels::CompiledNetwork& network() const;

  /// Runs the network: one view per input and per output, in order, each of its tensor's
  /// shape. Throws kernels::KernelError for a wrong count, shape or null data. Calls from
  /// several threads are safe but take turns (one arena; fallback steps share the graph's
  /// reference executor): serve concurrent callers from an artifact (runtime::Session).
  void run(std::span<const runtime::TensorView> inputs, std::span<const runtime::MutableTensorView> outputs);

 private:
  struct Impl;
  explicit JitSession(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace layoutopt::pipeline
