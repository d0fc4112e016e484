#pragma once
// Measurement files for the pipeline tests, written the way `tune` (with the default configs
// `optimize` measures) and `bench-transforms` write them, for this host's target on one
// thread, but with synthetic times: no tuning, no transform timing.
//
// The graph is two convs and nothing else, so every cost the planner sees comes from the
// files (layout-flexible ops would be timed afresh by each plan step) and planning twice
// from the same files plans the same.

#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

#include "layoutopt/costs/transform_enumeration.h"
#include "layoutopt/costs/transform_table.h"
#include "layoutopt/graph/graph.h"
#include "layoutopt/pipeline/measurement_files.h"
#include "layoutopt/tuning/default_configs.h"
#include "layoutopt/tuning/measurer.h"
#include "layoutopt/tuning/record_log.h"
#include "layoutopt/tuning/target.h"
#include "layoutopt/tuning/task_args.h"
#include "layoutopt/tuning/tuning_task.h"
#include "support/scratch_folder.h"

namespace layoutopt::testing {

/// x[1,16,8,8] -> conv1 3x3 (16 -> 32; direct and Winograd tasks) -> conv2 1x1 (32 -> 32).
inline graph::Graph conv_chain() {
  graph::Graph g("conv-chain");
  const auto seeded = [](int64_t count) { return graph::WeightData::seeded({2}, count); };
  const auto x = g.add_input("x", {{1, 16, 8, 8}});
  const auto w1 = g.add_parameter("conv1.weight", {32, 16, 3, 3}, seeded(32 * 16 * 9));
  const auto c1 = g.add_node("conv1", graph::Conv2d{.kernel = {3, 3}, .stride = {1, 1}, .pads = {1, 1, 1, 1}}, {x, w1});
  const auto w2 = g.add_parameter("conv2.weight", {32, 32, 1, 1}, seeded(32 * 32));
  g.add_output(g.add_node("conv2", graph::Conv2d{}, {c1, w2}));
  return g;
}

/// Length of the task key's text before keys were typed: synthetic times stay as they were.
inline size_t old_key_length(const tuning::TuningTask& task) {
  return task.name.size() + 1 + tuning::autotvm_args(task.task_key()).dump().size();
}

/// Seconds by config index, the same for every timing of a config.
class SyntheticMeasurer : public tuning::Measurer {
 public:
  tuning::MeasureResult measure(const tuning::TuningTask& task, int64_t index) override {
    tuning::MeasureResult r;
    r.costs_s = {1e-5 * static_cast<double>(1 + index % 7) + 1e-9 * static_cast<double>(old_key_length(task))};
    return r;
  }
};

/// The host's target string for one thread: what the pipeline reads and writes with threads = 1.
inline std::string host_target() { return tuning::host_target(1); }

/// A record log of `graph`'s tasks: one record per distinct layout pair (up to 6 per task,
/// the later pairs slower) and each task's default config, as `optimize` leaves them.
inline void write_records(const graph::Graph& graph, const std::filesystem::path& path) {
  const std::vector<tuning::TuningTask> tasks = tuning::extract_tasks(graph);
  std::vector<tuning::MeasureRecord> log;
  tuning::RecordWriter writer(path);
  for (const tuning::TuningTask& task : tasks) {
    std::set<std::pair<std::string, std::string>> pairs;
    for (int64_t index = 0; index < task.op.space().size() && pairs.size() < 6; ++index) {
      const kernels::OpLayouts layouts = task.op.layouts(index);
      if (!pairs.insert({layouts.input.str(), layouts.output.str()}).second) continue;
      tuning::MeasureResult result;
      result.costs_s = {1e-5 * static_cast<double>(pairs.size())};
      log.push_back(tuning::make_record(host_target(), task, index, result));
      writer.append(log.back());
    }
  }
  SyntheticMeasurer measurer;
  (void)tuning::measure_default_configs(tuning::default_algorithm_tasks(tasks), log, measurer, host_target(),
                                        [&](const tuning::MeasureRecord& r) { writer.append(r); });
}

/// A transform table holding every transform bench-transforms would time for the records,
/// and the vector-friendly ones, each 1 us plus a little per key so no two tie.
inline void write_table(const graph::Graph& graph, const std::filesystem::path& records,
                        const std::filesystem::path& path) {
  const std::vector<tuning::TuningTask> tasks = tuning::extract_tasks(graph);
  std::vector<costs::TransformKey> keys = costs::enumerate_transforms(graph);
  for (const costs::TransformKey& key : costs::enumerate_transforms(
           graph, costs::tuned_blocks(tasks, tuning::load_record_log(records).records, host_target())))
    keys.push_back(key);
  costs::TransformTable table;
  for (size_t i = 0; i < keys.size(); ++i) {
    const double ms = 0.001 + 1e-6 * static_cast<double>(i);
    table.insert({host_target(), 1, keys[i], ms, ms, ms, 5, 0});
  }
  table.save(path);
}

/// A transform table pricing every transform among the blocks dividing the channels of each
/// of `shapes` (NCHW), each 1 us: whatever a tuning run makes worth having is in it.
inline void write_every_transform(const std::vector<std::vector<int64_t>>& shapes, const std::filesystem::path& path) {
  costs::TransformTable table;
  for (const std::vector<int64_t>& shape : shapes) {
    std::vector<layout::Layout> layouts;
    for (int64_t block = 1; block <= shape.at(1); block *= 2)
      if (shape.at(1) % block == 0) layouts.push_back(layout::Layout::channel_blocked(shape.size(), block));
    for (const layout::Layout& src : layouts)
      for (const layout::Layout& dst : layouts)
        if (src != dst) table.insert({host_target(), 1, {shape, src, dst}, 0.001, 0.001, 0.001, 5, 0});
  }
  table.save(path);
}

/// Records and table for `graph` in `folder`.
inline pipeline::MeasurementFiles write_measurements(const graph::Graph& graph, const std::filesystem::path& folder) {
  std::filesystem::create_directories(folder);
  const pipeline::MeasurementFiles files{folder / "tune.jsonl", folder / "transforms.json"};
  write_records(graph, files.records);
  write_table(graph, files.records, files.transforms);
  return files;
}

/// A copy of `files` in `folder`: the same inputs for another run.
inline pipeline::MeasurementFiles copy_measurements(const pipeline::MeasurementFiles& files,
                                                    const std::filesystem::path& folder) {
  std::filesystem::create_directories(folder);
  const pipeline::MeasurementFiles copy{folder / files.records.filename(), folder / files.transforms.filename()};
  std::filesystem::copy_file(files.records, copy.records);
  std::filesystem::copy_file(files.transforms, copy.transforms);
  return copy;
}

}  // namespace layoutopt::testing
