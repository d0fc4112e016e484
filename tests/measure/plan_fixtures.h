#pragma once
// Shared pieces of the planning tests: a tiny graph with every kind of node the planner
// distinguishes, a synthetic record log and transform table for it, and fast timing options.

#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/costs/flexible_op_timing.h"
#include "layoutopt/costs/measured_cost_source.h"
#include "layoutopt/costs/offered_layouts.h"
#include "layoutopt/costs/transform_enumeration.h"
#include "layoutopt/tuning/record_log.h"
#include "layoutopt/planning/planner.h"
#include "layoutopt/tuning/tuning_session.h"

namespace layoutopt::testing {

inline constexpr const char* kTarget = "llvm -mcpu=test-cpu -num-cores=1";

struct TinyOptions {
  std::string conv2_name = "conv2";
  int64_t conv1_stride = 1;
};

/// x[1,16,8,8] -> conv1 3x3 -> relu -> max pool 2x2 -> conv2 1x1 -> global pool -> flatten -> fc.
inline graph::Graph tiny_graph(const TinyOptions& options = {}) {
  graph::Graph g("tiny");
  const auto seeded = [](int64_t count) { return graph::WeightData::seeded({1}, count); };
  const auto x = g.add_input("x", {{1, 16, 8, 8}});
  const auto w1 = g.add_parameter("conv1.weight", {32, 16, 3, 3}, seeded(32 * 16 * 9));
  const auto c1 = g.add_node(
      "conv1", graph::Conv2d{.kernel = {3, 3}, .stride = {options.conv1_stride, options.conv1_stride}, .pads = {1, 1, 1, 1}},
      {x, w1});
  const auto r1 = g.add_node("relu1", graph::Relu{}, {c1});
  const auto p1 = g.add_node("pool1", graph::Pool2d{.kernel = {2, 2}, .stride = {2, 2}}, {r1});
  const auto w2 = g.add_parameter("conv2.weight", {32, 32, 1, 1}, seeded(32 * 32));
  const auto c2 = g.add_node(options.conv2_name, graph::Conv2d{}, {p1, w2});
  const auto gp = g.add_node("gap", graph::GlobalAvgPool{}, {c2});
  const auto fl = g.add_node("flatten", graph::Flatten{}, {gp});
  const auto wd = g.add_parameter("fc.weight", {10, 32}, seeded(10 * 32));
  g.add_output(g.add_node("fc", graph::Dense{}, {fl, wd}));
  return g;
}

/// Which configs of a task get a record (all when empty).
using ConfigFilter = std::function<bool(const tuning::TuningTask&, const kernels::OpLayouts&)>;

/// One record per distinct layout pair of each task (up to 6) that `keep` keeps, the later
/// pairs slower.
inline void write_records(const std::filesystem::path& path, const std::vector<tuning::TuningTask>& tasks,
                          const ConfigFilter& keep = {}) {
  tuning::RecordWriter writer(path);
  for (const tuning::TuningTask& task : tasks) {
    std::set<std::pair<std::string, std::string>> pairs;
    for (int64_t index = 0; index < task.op.space().size() && pairs.size() < 6; ++index) {
      const kernels::OpLayouts layouts = task.op.layouts(index);
      if (keep && !keep(task, layouts)) continue;
      if (!pairs.insert({layouts.input.str(), layouts.output.str()}).second) continue;
      tuning::MeasureResult result;
      result.costs_s = {1e-5 * static_cast<double>(pairs.size())};
      writer.append(tuning::make_record(kTarget, task, index, result));
    }
  }
}

/// Every transform bench-transforms would time for the graph, 1 us each.
inline costs::TransformTable synthetic_table(const graph::Graph& graph) {
  costs::TransformTable table;
  for (const costs::TransformKey& key : costs::enumerate_transforms(graph))
    table.insert({kTarget, 1, key, 0.001, 0.001, 0.001, 5, 0});
  return table;
}

/// Planning with DP, the plan recording kTarget and `costs`.
inline planning::PlannerOptions dp_planner(planning::CostKind costs = planning::CostKind::measured) {
  return {.solver = planning::SolverChoice::dp, .solve = {}, .target = kTarget, .costs = costs};
}

/// Timing for tests: one warm-up, a fraction of a millisecond per kernel.
inline timing::TimingPolicy fast_policy() {
  return {.warmup_runs = 1, .min_repeats = 2, .min_repeat_ms = 0.2, .threads = 1};
}

inline costs::MeasuredCostOptions fast_options(const std::filesystem::path& records) {
  return {kTarget, 1, records, "t.json"};
}

/// A measured cost source with the tables it looks up, made as the pipeline makes them: the
/// records' offered layouts and the flexible ops timed in them (fast_policy). `graph` and
/// `table` must outlive it; `source` points into the other members, so it is not copied.
struct MeasuredCosts {
  MeasuredCosts(const graph::Graph& graph, const std::vector<tuning::MeasureRecord>& records,
                const costs::TransformTable& table, const std::filesystem::path& records_path)
      : offered(costs::offered_layouts(graph, records, table, kTarget, 1)),
        flexible(costs::time_flexible_ops(graph, offered, fast_policy(), nullptr)),
        source(graph, records, {.transforms = table, .offered = offered, .flexible = flexible},
               fast_options(records_path)) {}
  MeasuredCosts(const MeasuredCosts&) = delete;
  MeasuredCosts& operator=(const MeasuredCosts&) = delete;

  costs::ShapeLayouts offered;
  costs::FlexibleOpTable flexible;
  costs::MeasuredCostSource source;
};

}  // namespace layoutopt::testing
