#pragma once
// Network: a NetworkSpec materialized with its weights and activation arena, ready to run
// many times, one run at a time (the arena and the kernels' scratch hold one inference).
// CompiledNetwork (JIT) and an ahead-of-time session both run one; networks of the same model
// share its weights, so a session runs concurrent calls on networks of its own (NetworkPool).

#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "layoutopt/runtime/materialize.h"
#include "layoutopt/runtime/network_spec.h"
#include "layoutopt/runtime/page_block.h"
#include "layoutopt/runtime/team_barrier.h"

namespace layoutopt::runtime {

class Network {
 public:
  /// `weights` holds the weight image (spec.weight_floats floats at least), read only. Throws
  /// as materialize() does.
  Network(NetworkSpec spec, std::shared_ptr<const PageBlock> weights, const FunctionResolver& resolve,
          const ReferenceBodies& reference = {});

  /// Copies `values` (canonical layout, spec().inputs[index]'s element count) into the
  /// input's slot; throws KernelError for a wrong index or size.
  void set_input(size_t index, std::span<const float> values);
  /// Output `index` of the last execute, in canonical layout.
  [[nodiscard]] std::span<const float> output(size_t index) const;

  using StepDone = std::function<void(size_t step)>;
  /// Runs every step on the inputs set last (they stay valid: runs can be repeated), calling
  /// `step_done` (if set) on this thread after each, the team starting the next step once it
  /// returns (one barrier more per step, so that each step's wall time covers every thread's
  /// work in it). Runs of steps that share a team run in
  /// one OpenMP team (see Team::calling), except in the first run at a thread count, where
  /// each step forks its own. In that team each of the spec's forks runs its lanes side by
  /// side (one thread per lane), unless the team has fewer threads than lanes or
  /// `step_done` is set: a profile times steps one by one. Call it outside any parallel region.
  ///
  /// With `busy_ms` (steps x omp_get_max_threads() values), thread t of the run's team writes
  /// its milliseconds inside kernel bodies during step s at busy_ms[s * threads + t]
  /// (busy_time.h); a step run by a team of its own or in a fork's lane (forks run only
  /// without `step_done`), or whose work is not in kernel bodies
  /// (RunnableStep::records_busy_time), leaves its values alone. Throws KernelError for a
  /// span of another size.
  void execute(const StepDone& step_done = {}, std::span<double> busy_ms = {});

  [[nodiscard]] const NetworkSpec& spec() const { return spec_; }
  [[nodiscard]] int64_t scratch_bytes() const { return scratch_->bytes(); }

 private:
  NetworkSpec spec_;
  std::shared_ptr<const PageBlock> weights_;
  PageBlock arena_;
  SlotAddresses addresses_;  // by slot
  std::shared_ptr<KernelScratch> scratch_ = std::make_shared<KernelScratch>();
  /// Runs the steps of `fork` in the calling thread's lane, alone.
  void run_lane(const Fork& fork) const;

  std::vector<RunnableStep> steps_;
  std::vector<int32_t> fork_starting_;  // by step: the fork that starts there, or -1
  int sized_for_threads_ = 0;  // the thread count of the last complete run (see execute)
  TeamBarrier team_barrier_;   // where the team waits between forks and profiled steps
};

}  // namespace layoutopt::runtime
