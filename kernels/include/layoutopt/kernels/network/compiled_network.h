#pragma once
// CompiledNetwork: a graph compiled for one NetworkSchedule, ready to run many times.
//
//   graph::prepare_for_inference(graph);                       // BN folded, epilogues fused
//   CompiledNetwork net = CompiledNetwork::compile(graph, schedule);
//   std::vector<HostTensor> out = net.run({input});            // canonical NCHW in and out
//
// What compiling does:
//  - every node becomes its JIT kernel for the scheduled layouts: conv2d / dense from the
//    schedule's knobs with their fused epilogue (bias, relu / relu6, residual add); pooling,
//    batch norm, add / mul, activations, concat and softmax in the block of their layouts.
//    Weights are re-laid out, and batch norms folded into scale / shift, once, here;
//  - a layout transform is inserted wherever a reader wants a tensor in another layout than
//    its producer wrote: one per (tensor, layout) however many readers share it, placed just
//    before its first reader. Graph inputs arrive and outputs leave in canonical layout;
//  - views instead of copies where the memory already is the result (flatten / reshape in
//    compatible layouts, two layouts that place every element at the same offset), and a
//    conv or add writes over its residual operand when nothing reads that operand later;
//  - one arena holds all activations: tensors whose lifetimes do not overlap share memory.
// Operators without a blocked kernel (transpose, constant pad, clip other than relu6,
// broadcasts other than per-channel, flatten of a blocked spatial tensor) run the reference
// implementation on canonical copies; the summary counts them as fallbacks.
//
// OpenMP parallelism lives in the kernels and transforms: set the thread count around
// compile-free calls (run / execute) as for any kernel.
//
// The compiled network is data first (a runtime::NetworkSpec: slots, arena, constants and
// steps) and is run by the runtime's Network, as an ahead-of-time artifact is.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/network/network_schedule.h"
#include "layoutopt/kernels/reference/host_tensor.h"
#include "layoutopt/layout/layout.h"
#include "layoutopt/runtime/network.h"

namespace layoutopt::kernels {

enum class StepKind { kernel, transform, fallback };
[[nodiscard]] const char* to_string(StepKind kind);

/// What a transform step converts: its tensor's logical shape and the two layouts, as a
/// transform table keys its timings.
struct TransformedTensor {
  std::vector<int64_t> shape;
  layout::Layout from, to;
};

/// One thing the network does per run, in run order.
struct NetworkStep {
  std::string name;    ///< the node's name, or the tensor's name for a transform
  StepKind kind = StepKind::kernel;
  std::string detail;  ///< for people: kernel symbol, "NCHW16c->NCHW8c (copy_runs)", "reference transpose"
  std::optional<TransformedTensor> transform;  ///< set for transform steps only
  std::optional<graph::NodeId> node;           ///< the node the step runs; none for a transform
  std::optional<graph::OpKind> op;             ///< that node's operator
  /// The kernel's kind ("conv2d", "winograd_conv2d", "concat", ...): the algorithm, where the
  /// operator has several; the operator's name for a fallback; empty for a transform.
  std::string kernel;
};

struct CompileSummary {
  size_t kernels = 0;     ///< node steps running JIT kernels
  size_t transforms = 0;  ///< inserted layout transforms
  size_t fallbacks = 0;   ///< node steps running reference code
  size_t views = 0;       ///< nodes and layout changes that needed no data movement
  size_t in_place = 0;    ///< steps writing over their residual operand
  size_t concat_inputs_placed = 0;  ///< concat inputs written straight into the concat's output
  double kernel_compile_ms = 0;  ///< JIT time summed over distinct kernels
  double seconds = 0;            ///< wall time of compile()
  int64_t arena_bytes = 0;       ///< activation memory after reuse
  int64_t tensor_bytes = 0;      ///< activation memory if every tensor had its own buffer
  int64_t constant_bytes = 0;    ///< re-laid weights, biases, folded batch norms
  int64_t scratch_bytes = 0;     ///< intermediates of multi-stage (Winograd) kernels, shared by all
};

/// One run timed step by step (CompiledNetwork::execute_profiled), in the order of steps().
struct ProfiledRun {
  /// Each step's wall time, ms: from the end of the step before to the end of this one, which
  /// in a shared team is when its last thread finished.
  std::vector<double> step_ms;
  /// Each step's waiting time, ms: its wall time less the time the team's threads spent
  /// inside its kernel bodies, averaged over the threads (at the step's barrier, claiming
  /// items, in the runtime between steps). NaN where nothing was recorded: a step run by a
  /// team of its own, a concat with nothing to copy (skipped), or a step whose work is not in
  /// kernel bodies (a layout transform, a reference step; runtime::RunnableStep::
  /// records_busy_time).
  std::vector<double> wait_ms;
};

class CompiledNetwork {
 public:
  /// `graph` must outlive the network (fallback steps read it). Throws KernelError naming the
  /// node when the schedule does not fit the graph: wrong node or input count, knobs that
  /// are not a point of the node's schedule space, layouts that contradict the knobs or do
  /// not divide a tensor's channels.
  /// `forks` (runtime::plan_forks over a network compiled from the same graph and
  /// schedule) run stretches of steps side by side; KernelError when they do not fit.
  [[nodiscard]] static CompiledNetwork compile(const graph::Graph& graph, const NetworkSchedule& schedule,
                                               std::span<const runtime::Fork> forks = {});

  CompiledNetwork(CompiledNetwork&&) noexcept;
  CompiledNetwork& operator=(CompiledNetwork&&) noexcept;
  ~CompiledNetwork();

  /// set_inputs, execute, outputs.
  [[nodiscard]] std::vector<reference::HostTensor> run(const std::vector<reference::HostTensor>& inputs);
  /// Copies the inputs (canonical layout, graph.inputs() order) into the network; throws
  /// KernelError naming the input for a wrong count or shape.
  void set_inputs(const std::vector<reference::HostTensor>& inputs);
  /// Runs every step on the inputs set last (they stay valid: runs can be repeated). Runs of
  /// kernel steps share one OpenMP team (see Team::calling), except in the first run at a
  /// thread count, where each step forks its own. Call it outside any parallel region.
  void execute();
  /// As execute, timing each step (ProfiledRun).
  [[nodiscard]] ProfiledRun execute_profiled();
  /// The graph outputs of the last execute, in canonical layout.
  [[nodiscard]] std::vector<reference::HostTensor> outputs() const;

  [[nodiscard]] const std::vector<NetworkStep>& steps() const;
  [[nodiscard]] const CompileSummary& summary() const;

  /// The runtime network this runs (spec().inputs / outputs, set_input and output over plain
  /// float buffers): for callers that feed and read memory they own, such as a session
  /// serving NumPy arrays, without the HostTensor copies of run().
  [[nodiscard]] runtime::Network& network();
  [[nodiscard]] const runtime::Network& network() const;

 private:
  struct Impl;
  explicit CompiledNetwork(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace layoutopt::kernels
