#include "layoutopt/distributed/measurement_farm.h"

#include <algorithm>
#include <deque>
#include <optional>
#include <stdexcept>

namespace layoutopt::distributed {

namespace {

// How long one wait for a worker event lasts before the farm looks at its workers again;
// transports report lost workers themselves, so this only bounds a silent transport's hold.
constexpr std::chrono::milliseconds poll_interval{500};

// The batch's bookkeeping: configs not yet handed out, and the one each worker is measuring.
struct BatchState {
  std::deque<int64_t> pending;
  std::vector<std::optional<int64_t>> busy;  ///< by worker
  bool accepting = true;                     ///< false once the session asked to stop

  [[nodiscard]] bool in_flight() const {
    return std::ranges::any_of(busy, [](const std::optional<int64_t>& config) { return config.has_value(); });
  }
  [[nodiscard]] bool done() const { return (!accepting || pending.empty()) && !in_flight(); }
};

}  // namespace

MeasurementFarm::MeasurementFarm(const std::vector<tuning::TuningTask>& tasks, Transport& transport)
    : tasks_(tasks), transport_(transport) {
  statistics_.measured.assign(static_cast<size_t>(transport.workers()), 0);
  statistics_.lost.assign(static_cast<size_t>(transport.workers()), false);
}

int64_t MeasurementFarm::task_number(const tuning::TuningTask& task) const {
  const auto found = std::ranges::find_if(
      tasks_, [&](const tuning::TuningTask& candidate) { return candidate.task_key() == task.task_key(); });
  if (found == tasks_.end())
    throw std::runtime_error("measurement farm: task " + task.name + " is not in the workers' task list");
  return found - tasks_.begin();
}

bool MeasurementFarm::any_worker_left() const {
  return std::ranges::any_of(statistics_.lost, [](bool lost) { return !lost; });
}

tuning::MeasureResult MeasurementFarm::measure(const tuning::TuningTask& task, int64_t index) {
  tuning::MeasureResult measured;
  measure_batch(task, {index}, [&](int64_t, const tuning::MeasureResult& result) {
    measured = result;
    return true;
  });
  return measured;
}

void MeasurementFarm::measure_batch(const tuning::TuningTask& task, const std::vector<int64_t>& indices,
                                    const ResultCallback& on_result) {
  const int64_t number = task_number(task);
  BatchState state{{indices.begin(), indices.end()}, std::vector<std::optional<int64_t>>(statistics_.lost.size()), true};
  while (!state.done()) {
    if (!any_worker_left()) throw std::runtime_error("measurement farm: every worker was lost");
    for (size_t worker = 0; worker < state.busy.size() && state.accepting && !state.pending.empty(); ++worker) {
      if (statistics_.lost[worker] || state.busy[worker]) continue;
      state.busy[worker] = state.pending.front();
      state.pending.pop_front();
      transport_.assign(static_cast<int>(worker), {number, *state.busy[worker]});
    }
    const std::optional<WorkerEvent> event = transport_.wait(poll_interval);
    if (!event) continue;
    if (const auto* lost = std::get_if<WorkerLost>(&*event)) {
      const auto worker = static_cast<size_t>(lost->worker);
      statistics_.lost[worker] = true;
      if (state.busy[worker]) {
        state.pending.push_front(*state.busy[worker]);  // its config goes to the next idle worker
        state.busy[worker].reset();
        ++statistics_.reissued;
      }
      continue;
    }
    const Completion& completion = std::get<Completion>(*event);
    const auto worker = static_cast<size_t>(completion.worker);
    // A late answer of a worker given up as lost: its config was handed out again.
    if (statistics_.lost[worker] || state.busy[worker] != completion.work.config || completion.work.task != number)
      continue;
    state.busy[worker].reset();
    ++statistics_.measured[worker];
    if (!on_result(completion.work.config, completion.result)) state.accepting = false;
  }
}

}  // namespace layoutopt::distributed
