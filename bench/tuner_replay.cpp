// Replays the schedule search against a surrogate of this host, to compare search settings
// without the host's noise: every config a tuning log measured costs what the log says, every
// other config what an XGBoost model of that task's records predicts. Each setting searches
// from empty records with a quick budget's trials, over many seeds; the table gives the conv
// time per inference its best configs promise, over the surrogate's optimum (1.00 = found the
// best config of every task). The settings are kSettings: the options as shipped first, the
// others each one change from them.
//
//   bench_tuner_replay MODEL LOG [--trials-per-task N] [--seeds N]
//
// LOG should hold many trials per task (a normal or thorough budget's log of MODEL on this
// host); tasks with fewer than kMinRecords working records are left out (their surrogate
// would be the model's guess alone). The surrogate is XGBoost like the tuner's own model,
// which flatters model-guided search a little against random search; the settings compared
// here are all model-guided.

#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "layoutopt/pipeline/load_model.h"
#include "layoutopt/timing/progress.h"
#include "layoutopt/timing/statistics.h"
#include "layoutopt/tuning/config_features.h"
#include "layoutopt/tuning/record_log.h"
#include "layoutopt/tuning/transferred_experience.h"
#include "layoutopt/tuning/tuning_experience.h"
#include "layoutopt/tuning/tuning_session.h"

namespace {

using namespace layoutopt;
using tuning::TuningTask;

constexpr size_t kMinRecords = 24;

/// A search setting: the session's options as shipped, changed by `apply`.
struct Setting {
  const char* name;
  void (*apply)(tuning::SessionOptions&);
};

constexpr Setting kSettings[] = {
    {"as shipped", [](tuning::SessionOptions&) {}},
    {"best predicted only", [](tuning::SessionOptions& o) { o.tuner.explore_share = 0; }},
    {"1 in 4 by upper bound", [](tuning::SessionOptions& o) { o.tuner.explore_share = 0.25; }},
    {"own model after 8", [](tuning::SessionOptions& o) { o.tuner.random_warmup = 8; }},
    {"own model after 32", [](tuning::SessionOptions& o) { o.tuner.random_warmup = 32; }},
    {"batches of 4", [](tuning::SessionOptions& o) { o.batch_size = 4; }},
    {"batches of 16", [](tuning::SessionOptions& o) { o.batch_size = 16; }},
};

/// One task's landscape: measured configs at their logged seconds (the fastest of repeats),
/// failed ones failing, the rest at the model's prediction.
class TaskSurrogate {
 public:
  TaskSurrogate(const TuningTask& task, const std::map<int64_t, tuning::MeasureResult>& measured) {
    tuning::TuningExperience model;
    for (const auto& [index, result] : measured) {
      if (!result.ok()) {
        failed_.insert(index);
        continue;
      }
      seconds_[index] = result.seconds();
      model.add(tuning::config_features(task, index), tuning::experience_label(task, result.seconds()));
    }
    const int64_t size = task.op.space().searched_size();
    std::vector<int64_t> all(static_cast<size_t>(size));
    for (int64_t i = 0; i < size; ++i) all[static_cast<size_t>(i)] = i;
    const std::vector<float> labels = model.predict(tuning::config_feature_rows(task, all));
    predicted_.resize(all.size());
    for (size_t i = 0; i < all.size(); ++i) predicted_[i] = task.op.flops() * 1e-9 / std::exp(labels[i]);
  }

  [[nodiscard]] tuning::MeasureResult measure(int64_t index) const {
    tuning::MeasureResult result;
    if (failed_.contains(index)) {
      result.error_no = static_cast<int>(tuning::MeasureErrorNo::runtime_device);
      return result;
    }
    const auto found = seconds_.find(index);
    result.costs_s = {found != seconds_.end() ? found->second : predicted_.at(static_cast<size_t>(index))};
    return result;
  }

  /// What the task costs untuned: its default schedule, as the planner runs a task without
  /// a working tuned config.
  [[nodiscard]] double untuned_seconds(const TuningTask& task) const {
    const kernels::ConfigSpace& space = task.op.space();
    return measure(space.searched_part(task.op.default_index())).seconds();
  }

  /// The fastest config of the whole searched space.
  [[nodiscard]] std::pair<int64_t, double> optimum() const {
    std::pair<int64_t, double> best{-1, std::numeric_limits<double>::infinity()};
    for (int64_t i = 0; i < static_cast<int64_t>(predicted_.size()); ++i) {
      const tuning::MeasureResult result = measure(i);
      if (result.ok() && result.seconds() < best.second) best = {i, result.seconds()};
    }
    return best;
  }

 private:
  std::map<int64_t, double> seconds_;
  std::set<int64_t> failed_;
  std::vector<double> predicted_;
};

class SurrogateMeasurer : public tuning::Measurer {
 public:
  explicit SurrogateMeasurer(std::map<const TuningTask*, const TaskSurrogate*> surrogates)
      : surrogates_(std::move(surrogates)) {}
  tuning::MeasureResult measure(const TuningTask& task, int64_t index) override {
    return surrogates_.at(&task)->measure(index);
  }

 private:
  std::map<const TuningTask*, const TaskSurrogate*> surrogates_;
};

struct Replay {
  std::vector<TuningTask> tasks;         ///< the tasks with enough records
  std::vector<TaskSurrogate> surrogates;  ///< parallel to tasks
  std::string target;
};

Replay build_replay(const std::string& model, const std::string& log) {
  const pipeline::LoadedModel loaded = pipeline::load_prepared_model(model);
  const std::vector<TuningTask> all = tuning::extract_tasks(loaded.graph);
  if (!std::filesystem::is_regular_file(log)) throw std::runtime_error("no tuning log at " + log);
  const tuning::LoadedLog records = tuning::load_record_log(log);
  if (records.records.empty()) throw std::runtime_error(log + " holds no records");
  Replay replay;
  replay.target = records.records.front().target;
  const tuning::TaskIndex index_of(all);
  std::vector<std::map<int64_t, tuning::MeasureResult>> measured(all.size());
  for (const tuning::MeasureRecord& record : records.records) {
    const std::optional<size_t> task = index_of.find(record, replay.target);
    if (!task) continue;
    const std::optional<int64_t> index = all[*task].config_index(record.knob_map());
    if (!index || !all[*task].op.space().searched(*index)) continue;
    auto [it, fresh] = measured[*task].try_emplace(*index, record.result);
    if (!fresh && record.result.ok() && record.result.seconds() < it->second.seconds()) it->second = record.result;
  }
  std::vector<size_t> kept;
  for (size_t t = 0; t < all.size(); ++t) {
    size_t working = 0;
    for (const auto& entry : measured[t]) working += entry.second.ok() ? 1 : 0;
    if (working >= kMinRecords) kept.push_back(t);
    else std::printf("left out: %s x%lld (%zu working records)\n", all[t].name.c_str(),
                     static_cast<long long>(all[t].weight), working);
  }
  if (kept.empty()) throw std::runtime_error(log + " has no task of " + model + " with enough records");
  for (size_t t : kept) replay.tasks.push_back(all[t]);
  replay.surrogates.reserve(kept.size());  // the measurer keeps pointers to both
  for (size_t k = 0; k < kept.size(); ++k) replay.surrogates.emplace_back(replay.tasks[k], measured[kept[k]]);
  return replay;
}

/// The surrogate's optimum conv time per inference: every task at its fastest config.
double optimum_latency(const Replay& replay) {
  tuning::SessionResult best;
  for (const TaskSurrogate& surrogate : replay.surrogates) {
    const auto [index, seconds] = surrogate.optimum();
    tuning::TaskOutcome& outcome = best.tasks.emplace_back();
    outcome.best_seconds = seconds;
    if (index >= 0) outcome.best_index = index;
  }
  return tuning::estimated_latency(replay.tasks, best);
}

/// Tasks the search left without a working config run their default schedule: priced so,
/// not left out of the total.
void price_untuned_tasks(const Replay& replay, tuning::SessionResult& result) {
  for (size_t k = 0; k < replay.tasks.size(); ++k) {
    tuning::TaskOutcome& outcome = result.tasks[k];
    if (outcome.best_index) continue;
    const TuningTask& task = replay.tasks[k];
    outcome.best_seconds = replay.surrogates[k].untuned_seconds(task);
    outcome.best_index = task.op.space().searched_part(task.op.default_index());
  }
}

/// Per setting, per seed: the conv time the search's best configs promise over `optimum`.
std::vector<std::vector<double>> search_all(const Replay& replay, double optimum, int64_t trials_per_task, int seeds) {
  std::map<const TuningTask*, const TaskSurrogate*> by_task;
  for (size_t k = 0; k < replay.tasks.size(); ++k) by_task[&replay.tasks[k]] = &replay.surrogates[k];
  SurrogateMeasurer measurer(by_task);
  std::vector<std::vector<double>> found(std::size(kSettings));
  const size_t runs = std::size(kSettings) * static_cast<size_t>(seeds);
  timing::ProgressReporter progress(std::cerr, {.mode = timing::default_progress_mode(false)});
  for (size_t s = 0; s < std::size(kSettings); ++s)
    for (int seed = 0; seed < seeds; ++seed) {
      tuning::SessionOptions options;
      options.target = replay.target;
      options.trials = trials_per_task * static_cast<int64_t>(replay.tasks.size());
      kSettings[s].apply(options);
      options.tuner.seed = static_cast<uint64_t>(seed) * 1000;
      tuning::SessionResult result =
          tuning::tune_tasks(replay.tasks, {}, measurer, [](const tuning::MeasureRecord&) {}, options);
      price_untuned_tasks(replay, result);
      found[s].push_back(tuning::estimated_latency(replay.tasks, result) / optimum);
      const size_t done = s * static_cast<size_t>(seeds) + static_cast<size_t>(seed) + 1;
      progress.update(static_cast<double>(done), static_cast<double>(runs),
                      std::string(kSettings[s].name) + ", seed " + std::to_string(seed));
    }
  progress.finish();
  return found;
}

/// One row per setting: median and range over seeds, and paired with the first setting's
/// search of the same seed (median ratio, seeds it beat).
void print_table(const std::vector<std::vector<double>>& found) {
  std::printf("%-24s %10s %17s %16s %6s\n", "setting", "found/opt", "range", "vs first (med)", "wins");
  for (size_t s = 0; s < found.size(); ++s) {
    std::vector<double> paired;
    int wins = 0;
    for (size_t i = 0; i < found[s].size(); ++i) {
      paired.push_back(found[s][i] / found[0][i]);
      wins += found[s][i] < found[0][i] ? 1 : 0;
    }
    const timing::Summary summary = timing::summarize(found[s]);
    std::printf("%-24s %10.4f %8.4f-%-8.4f %16.4f %3d/%zu\n", kSettings[s].name, summary.median, summary.min,
                summary.max, timing::summarize(paired).median, wins, found[s].size());
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc < 3) {
      std::fprintf(stderr, "usage: %s MODEL LOG [--trials-per-task N] [--seeds N]\n", argv[0]);
      return 2;
    }
    int64_t trials_per_task = 16;
    int seeds = 10;
    for (int i = 3; i < argc; i += 2) {
      const std::string flag = argv[i];
      if (i + 1 >= argc) throw std::runtime_error(flag + " needs a value");
      if (flag == "--trials-per-task") trials_per_task = std::stoll(argv[i + 1]);
      else if (flag == "--seeds") seeds = std::stoi(argv[i + 1]);
      else throw std::runtime_error("unknown flag " + flag);
    }
    if (trials_per_task <= 0 || seeds <= 0) throw std::runtime_error("--trials-per-task and --seeds must be positive");
    const Replay replay = build_replay(argv[1], argv[2]);
    const double optimum = optimum_latency(replay);
    std::printf("%zu tasks, %lld trials each on average, %d seeds; surrogate optimum %.3f ms\n", replay.tasks.size(),
                static_cast<long long>(trials_per_task), seeds, optimum * 1e3);
    print_table(search_all(replay, optimum, trials_per_task, seeds));
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
