#include "layoutopt/runtime/network.h"

#include <omp.h>

#include <algorithm>
#include <string>

#include "layoutopt/runtime/busy_time.h"
#include "layoutopt/runtime/error.h"

namespace layoutopt::runtime {

Network::Network(NetworkSpec spec, std::shared_ptr<const PageBlock> weights, const FunctionResolver& resolve,
                 const ReferenceBodies& reference)
    : spec_(std::move(spec)), weights_(std::move(weights)), arena_(static_cast<size_t>(std::max<int64_t>(spec_.arena_floats, 0))) {
  const int64_t given = weights_ ? static_cast<int64_t>(weights_->size()) : 0;
  if (given < spec_.weight_floats)
    throw KernelError("network '" + spec_.name + "' reads " + std::to_string(spec_.weight_floats) +
                      " floats of weights, given " + std::to_string(given));
  const float* image = weights_ ? weights_->data() : nullptr;
  steps_ = materialize(spec_, resolve, image, scratch_, reference);  // validates the spec first
  for (const SlotSpec& slot : spec_.slots)
    addresses_.push_back(arena_.data() + spec_.storage_offsets[static_cast<size_t>(slot.storage)] + slot.offset);
  fork_starting_.assign(steps_.size(), -1);
  for (size_t f = 0; f < spec_.forks.size(); ++f)
    fork_starting_[static_cast<size_t>(spec_.forks[f].begin)] = static_cast<int32_t>(f);
}

void Network::run_lane(const Fork& fork) const {
  const int lane = omp_get_thread_num();
  for (int32_t s = fork.begin; s < fork.end; ++s)
    if (fork.lanes[static_cast<size_t>(s - fork.begin)] == lane) steps_[static_cast<size_t>(s)].run(addresses_, Team::alone);
}

void Network::set_input(size_t index, std::span<const float> values) {
  if (index >= spec_.inputs.size())
    throw KernelError("network '" + spec_.name + "' has " + std::to_string(spec_.inputs.size()) + " inputs, not " +
                      std::to_string(index + 1));
  const TensorSpec& input = spec_.inputs[index];
  const int64_t floats = spec_.slots[static_cast<size_t>(input.slot)].floats;
  if (static_cast<int64_t>(values.size()) != floats)
    throw KernelError("input '" + input.name + "' has " + std::to_string(floats) + " elements, got " +
                      std::to_string(values.size()));
  std::copy(values.begin(), values.end(), addresses_[static_cast<size_t>(input.slot)]);
}

std::span<const float> Network::output(size_t index) const {
  if (index >= spec_.outputs.size())
    throw KernelError("network '" + spec_.name + "' has " + std::to_string(spec_.outputs.size()) + " outputs, not " +
                      std::to_string(index + 1));
  const SlotId slot = spec_.outputs[index].slot;
  return {addresses_[static_cast<size_t>(slot)], static_cast<size_t>(spec_.slots[static_cast<size_t>(slot)].floats)};
}

void Network::execute(const StepDone& step_done, std::span<double> busy_ms) {
  // A team must not size kernels' per-thread scratch while it runs (Team::calling), so the
  // first run at a thread count runs step by step, each kernel forking its own team.
  const int threads = omp_get_max_threads();
  if (!busy_ms.empty() && busy_ms.size() != steps_.size() * static_cast<size_t>(threads))
    throw KernelError("network '" + spec_.name + "': busy times for " + std::to_string(busy_ms.size()) +
                      " thread steps, not " + std::to_string(steps_.size()) + " steps x " + std::to_string(threads) +
                      " threads");
  // Where thread `t` of the team records its busy time in step `s`, zeroed (null: nowhere).
  const auto busy_slot = [&](size_t s, int t) -> double* {
    if (busy_ms.empty() || !steps_[s].records_busy_time || t >= threads) return nullptr;
    double* slot = &busy_ms[s * static_cast<size_t>(threads) + static_cast<size_t>(t)];
    *slot = 0;
    return slot;
  };
  const bool teams = sized_for_threads_ == threads;
  sized_for_threads_ = 0;  // until this run has finished every step
  size_t next = 0;
  while (next < steps_.size()) {
    if (!teams || !steps_[next].shares_team || steps_[next].does_nothing) {
      if (!steps_[next].does_nothing) steps_[next].run(addresses_, Team::own);
      if (step_done) step_done(next);
      ++next;
      continue;
    }
    // A stretch of steps that share a team runs in one: forking and joining a team costs
    // over a microsecond, a barrier a fraction of one, and a small step takes a few.
    // Nothing in it throws for a validated spec (materialize checked every kernel's
    // arguments); an exception cannot leave a parallel region, so one there would end the process.
    size_t end = next;
    while (end < steps_.size() && steps_[end].shares_team) ++end;
#pragma omp parallel
    for (size_t s = next; s < end;) {
      // Every thread takes the same branch: the test reads nothing a thread owns.
      const int32_t f = step_done ? -1 : fork_starting_[s];
      if (f >= 0 && spec_.forks[static_cast<size_t>(f)].lane_count() <= omp_get_num_threads() &&
          static_cast<size_t>(spec_.forks[static_cast<size_t>(f)].end) <= end) {
        run_lane(spec_.forks[static_cast<size_t>(f)]);
        team_barrier_.arrive_and_wait(omp_get_num_threads());
        s = static_cast<size_t>(spec_.forks[static_cast<size_t>(f)].end);
        continue;
      }
      {
        const BusyTimeSink busy(busy_slot(s, omp_get_thread_num()));
        steps_[s].run(addresses_, Team::calling);  // returns once the whole team has finished it
      }
      if (step_done) {
        if (omp_get_thread_num() == 0) step_done(s);
        // Profiled, the team starts the next step together: a thread that went ahead while
        // the step was being recorded counted its time in that step against a wall time
        // started after it, and its waiting came out negative.
        team_barrier_.arrive_and_wait(omp_get_num_threads());
      }
      ++s;
    }
    next = end;
  }
  sized_for_threads_ = threads;
}

}  // namespace layoutopt::runtime
