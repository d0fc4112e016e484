#include "layoutopt/distributed/measurement_farm.h"

#include <algorithm>
#include <deque>
#include <stdexcept>

namespace layoutopt::distributed {

namespace {

// How long one wait for a worker event lasts before the farm looks at its workers again;
// transports report lost workers themselves, so this only bounds a silent transport's hold.
constexpr std::chrono::milliseconds poll_interval{500};

double seconds_between(std::chrono::steady_clock::time_point from, std::chrono::steady_clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

}  // namespace

// A stream's bookkeeping: items not yet handed out, and the one each worker is working on.
struct MeasurementFarm::Stream {
  std::deque<Item> pending;
  std::vector<std::optional<Item>> busy;     ///< by worker
  std::vector<Clock::time_point> handed_at;  ///< by worker: when its item went out
  bool source_open = true;                   ///< the source may propose more
  bool accepting = true;                    ///< false once the caller asked to stop
  Clock::time_point last_tick = Clock::now();
  int idle_since_tick = 0;  ///< workers idle since last_tick

  explicit Stream(size_t workers) : busy(workers), handed_at(workers) {}
  [[nodiscard]] bool in_flight() const {
    return std::ranges::any_of(busy, [](const std::optional<Item>& item) { return item.has_value(); });
  }
  [[nodiscard]] bool done() const { return (!accepting || (pending.empty() && !source_open)) && !in_flight(); }
};

MeasurementFarm::MeasurementFarm(const std::vector<tuning::TuningTask>& tasks, Transport& transport,
                                 std::optional<int> search_worker)
    : tasks_(tasks), transport_(transport), search_worker_(search_worker) {
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

bool MeasurementFarm::any_worker_left() const { return live_workers() > 0; }

int MeasurementFarm::live_workers() const {
  return static_cast<int>(std::ranges::count(statistics_.lost, false));
}

tuning::MeasureResult MeasurementFarm::measure(const tuning::TuningTask& task, int64_t index) {
  tuning::MeasureResult measured;
  measure_batch(task, {index}, [&](int64_t, const tuning::MeasureResult& result) {
    measured = result;
    return true;
  });
  return measured;
}

void MeasurementFarm::measure_stream(const BatchSource& next, const StreamCallback& on_result) {
  run(
      [&]() -> std::optional<std::vector<Item>> {
        const std::optional<tuning::Batch> batch = next();
        if (!batch) return std::nullopt;
        const int64_t number = task_number(*batch->task);
        std::vector<Item> items;
        for (int64_t config : batch->indices) items.push_back({ConfigWork{number, config}, batch->task_id});
        return items;
      },
      [&](size_t task_id, const Completion& completion) {
        return on_result(task_id, std::get<ConfigWork>(completion.work).config,
                         std::get<tuning::MeasureResult>(completion.result));
      });
}

std::vector<costs::TransformEntry> MeasurementFarm::time(const std::vector<costs::TransformKey>& keys,
                                                         timing::ProgressReporter* progress,
                                                         const costs::EntryCallback& on_entry) {
  std::vector<Item> items;  // pass after pass over the keys
  for (int pass = 0; pass < costs::kTransformPasses; ++pass)
    for (size_t k = 0; k < keys.size(); ++k) items.push_back({TransformPass{keys[k]}, k});
  costs::TransformPasses passes(keys, progress, on_entry);
  bool given = false;
  run(
      [&]() -> std::optional<std::vector<Item>> {
        if (given) return std::nullopt;
        given = true;
        return items;
      },
      [&](size_t k, const Completion& completion) {
        passes.add(k, std::get<costs::TransformEntry>(completion.result));
        return true;
      });
  return passes.entries();
}

void MeasurementFarm::measure_batch(const tuning::TuningTask& task, const std::vector<int64_t>& indices,
                                    const ResultCallback& on_result) {
  bool given = false;
  measure_stream(
      [&]() -> std::optional<tuning::Batch> {
        if (given) return std::nullopt;
        given = true;
        return tuning::Batch{&task, 0, indices};
      },
      [&](size_t, int64_t index, const tuning::MeasureResult& result) { return on_result(index, result); });
}

bool MeasurementFarm::wants_items(const Stream& stream) const {
  if (!stream.accepting || !stream.source_open || static_cast<int>(stream.pending.size()) >= live_workers())
    return false;
  if (!search_worker_) return true;
  const auto worker = static_cast<size_t>(*search_worker_);
  return statistics_.lost[worker] || !stream.busy[worker];
}

void MeasurementFarm::hand_out(Stream& stream) {
  for (size_t worker = 0; worker < stream.busy.size() && stream.accepting && !stream.pending.empty(); ++worker) {
    if (statistics_.lost[worker] || stream.busy[worker]) continue;
    stream.busy[worker] = stream.pending.front();
    stream.pending.pop_front();
    stream.handed_at[worker] = Clock::now();
    transport_.assign(static_cast<int>(worker), stream.busy[worker]->work);
  }
}

bool MeasurementFarm::take_event(Stream& stream, const ItemCallback& on_done) {
  const std::optional<WorkerEvent> event = transport_.wait(poll_interval);
  if (!event) return false;
  if (const auto* lost = std::get_if<WorkerLost>(&*event)) {
    const auto worker = static_cast<size_t>(lost->worker);
    statistics_.lost[worker] = true;
    if (stream.busy[worker]) {
      stream.pending.push_front(*stream.busy[worker]);  // its item goes to the next idle worker
      stream.busy[worker].reset();
      ++statistics_.reissued;
    }
    return true;
  }
  const Completion& completion = std::get<Completion>(*event);
  const auto worker = static_cast<size_t>(completion.worker);
  // A late answer of a worker given up as lost: its item was handed out again.
  if (statistics_.lost[worker] || !stream.busy[worker] || stream.busy[worker]->work != completion.work) return true;
  const size_t id = stream.busy[worker]->id;
  stream.busy[worker].reset();
  ++statistics_.measured[worker];
  if (const auto* measured = std::get_if<tuning::MeasureResult>(&completion.result))
    statistics_.messaging_s +=
        std::max(0.0, seconds_between(stream.handed_at[worker], Clock::now()) - measured->all_cost_s);
  if (!on_done(id, completion)) stream.accepting = false;
  return true;
}

void MeasurementFarm::run(const ItemSource& next, const ItemCallback& on_done) {
  Stream stream(statistics_.lost.size());
  // Adds the worker-seconds idle since the last state change, and counts the idle workers now.
  const auto tick = [&] {
    const Clock::time_point now = Clock::now();
    statistics_.idle_s += seconds_between(stream.last_tick, now) * stream.idle_since_tick;
    stream.last_tick = now;
    stream.idle_since_tick = 0;
    for (size_t worker = 0; worker < stream.busy.size(); ++worker)
      stream.idle_since_tick += !statistics_.lost[worker] && !stream.busy[worker] ? 1 : 0;
  };
  tick();
  while (true) {
    if (!any_worker_left()) throw std::runtime_error("measurement farm: every worker was lost");
    while (wants_items(stream)) {  // batches of one config (default configs) fill every worker
      const Clock::time_point start = Clock::now();
      const std::optional<std::vector<Item>> items = next();
      statistics_.search_s += seconds_between(start, Clock::now());
      if (items) stream.pending.insert(stream.pending.end(), items->begin(), items->end());
      stream.source_open = items.has_value();
      tick();
    }
    hand_out(stream);
    tick();
    if (stream.done()) return;
    if (take_event(stream, on_done)) tick();
  }
}

}  // namespace layoutopt::distributed
