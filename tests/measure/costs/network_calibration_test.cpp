// Transforms and nodes priced by their time inside a compiled network: the table's spelling
// of a transform, the keys timed in a network, and the calibration loop over a tiny graph's
// plans.
// No time is asserted beyond being positive: the machine's speed is not the subject.

#include "layoutopt/costs/network_calibration.h"

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <stdexcept>

#include "layoutopt/costs/baseline_costs.h"
#include "layoutopt/graph/workloads.h"
#include "layoutopt/layout/layout.h"
#include "layoutopt/tuning/default_configs.h"
#include "layoutopt/costs/measured_cost_source.h"
#include "layoutopt/planning/plan_schedule.h"
#include "layoutopt/planning/planner.h"
#include "layoutopt/tuning/record_log.h"
#include "layoutopt/timing/statistics.h"
#include "layoutopt/timing/thread_scope.h"
#include "layoutopt/tuning/tuning_session.h"
#include "plan_fixtures.h"
#include "tuning_fixtures.h"

using namespace layoutopt;
using layout::Layout;
using testing::ScratchFile;

namespace {

using namespace layoutopt::testing;

/// The transforms a plan's compiled network runs, by table key.
std::set<costs::TransformKey> network_transforms(const graph::Graph& g, const planning::Plan& plan) {
  const kernels::CompiledNetwork network = kernels::CompiledNetwork::compile(g, planning::network_schedule(plan, g));
  std::set<costs::TransformKey> keys;
  for (const kernels::NetworkStep& step : network.steps())
    if (step.transform) keys.insert(costs::table_key(step.transform->shape, step.transform->from, step.transform->to));
  return keys;
}

/// Records in which the conv reading the NCHW graph input reads only blocked layouts, so every
/// plan transforms that input.
void write_blocked_input_records(const std::filesystem::path& path, const graph::Graph& g) {
  const std::vector<int64_t> input = g.value(g.inputs().front()).type.shape;
  write_records(path, tuning::extract_tasks(g), [&](const tuning::TuningTask& task, const kernels::OpLayouts& layouts) {
    return task.op.input_shape() != input || layouts.input.block_of('C') > 1;
  });
}

/// Appends each default-algorithm task's untuned default config at 1 ms: slower than every
/// config write_records gave its layout pair (10-60 us), so isolated prices never choose it.
void append_slow_defaults(const std::filesystem::path& path, const graph::Graph& g) {
  tuning::RecordWriter writer(path);
  for (const tuning::TuningTask& task : tuning::default_algorithm_tasks(tuning::extract_tasks(g))) {
    tuning::MeasureResult result;
    result.costs_s = {1e-3};
    writer.append(tuning::make_record(kTarget, task, task.op.default_index(), result));
  }
}

/// The tiny graph planned from those records and a 1 us transform table, on one thread.
struct Planning {
  timing::ThreadScope threads{1};
  graph::Graph graph = tiny_graph();
  ScratchFile records{"records.jsonl"};
  costs::TransformTable table = synthetic_table(graph);
  MeasuredCosts measured = make_costs();

  [[nodiscard]] planning::Plan plan(const costs::MeasuredCostSource& costs) const {
    return planning::plan_layouts(graph, costs, dp_planner()).plan;
  }
  [[nodiscard]] planning::Plan plan() const { return plan(measured.source); }

 private:
  MeasuredCosts make_costs() {
    write_blocked_input_records(records.path(), graph);
    append_slow_defaults(records.path(), graph);
    return {graph, tuning::load_record_log(records.path()).records, table, records.path()};
  }
};

/// Each node's candidate running its task's default config, by node.
std::map<graph::NodeId, planning::NodeCandidate> default_candidates(const graph::Graph& g,
                                                                    const costs::MeasuredCostSource& source) {
  std::map<graph::NodeId, planning::NodeCandidate> found;
  for (const tuning::TuningTask& task : tuning::default_algorithm_tasks(source.tasks()))
    for (graph::NodeId id : task.nodes)
      for (const planning::NodeCandidate& candidate : source.candidates(g, id)) {
        const auto& kernel = std::get<planning::TunedKernel>(candidate.kernel);
        if (kernel.task == task.name && kernel.config_index == task.op.default_index()) found.emplace(id, candidate);
      }
  return found;
}

}  // namespace

TEST_CASE("a transform is keyed as the table spells it: plain-equivalent layouts as the plain layout") {
  const std::vector<int64_t> map{1, 64, 7, 7}, vector{1, 64, 1, 1};
  const costs::TransformKey blocked = costs::table_key(map, Layout::parse("NCHW16c"), Layout::parse("NCHW8c"));
  CHECK(blocked == costs::TransformKey{map, Layout::nchwc(16), Layout::nchwc(8)});
  CHECK(costs::table_key(map, Layout::parse("NCHW1c"), Layout::parse("NCHW16c")).src == Layout::nchw());
  // On a 1x1 map every block places each element where NCHW does.
  CHECK(costs::table_key(vector, Layout::parse("NCHW16c"), Layout::parse("NCHW")).src == Layout::nchw());
}

TEST_CASE("calibration times the plan's steps in its network and prices them so until the plan settles") {
  Planning planning;
  const graph::Graph& g = planning.graph;
  const costs::TransformTable& table = planning.table;
  const auto replan = [&](const costs::MeasuredCostSource& costs) { return planning.plan(costs); };
  const planning::Plan first = planning.plan();
  const std::set<costs::TransformKey> first_keys = network_transforms(g, first);
  REQUIRE(!first_keys.empty());  // the NCHW graph input feeds a conv reading a blocked layout

  const costs::CalibrationReport report =
      costs::calibrate_in_network(g, planning.measured.source, replan, std::nullopt, {.max_rounds = 4, .profiled_runs = 3});
  const costs::MeasuredCostSource costs = planning.measured.source.repriced(report.repricing);

  CHECK(report.rounds >= 1);
  CHECK(report.rounds <= 4);
  CHECK((report.settled || report.rounds == 4));
  CHECK(report.retimed_profiles >= 0);
  CHECK(report.retimed_plans >= 0);
  CHECK(report.retimed_plans <= 2 * report.rounds);  // at most two extra timings of a plan per round
  // At most two extra profiles per timing of a plan.
  CHECK(report.retimed_profiles <= 2 * (report.rounds + report.retimed_plans));
  CHECK(report.summary().find(std::to_string(report.retimed_profiles) + " profiles timed again after a swing, " +
                              std::to_string(report.retimed_plans) + " plans after the whole network slowed") !=
        std::string::npos);
  CHECK(report.first_transforms.priced_ms == doctest::Approx(first.transform_ms()));
  CHECK(report.first_transforms.network_ms > 0);
  const costs::InNetworkTransformTimes& timed = costs.repricing().in_network_transforms;
  CHECK(report.transforms == timed.size());
  for (const costs::TransformKey& key : first_keys) CHECK(timed.contains(key));  // round 1 timed them all
  for (const auto& [key, ms] : timed) {
    CHECK(ms > 0);
    // The cost source now answers with the in-network time, not the table's 1 us.
    CHECK(costs.transform_ms(key.shape, key.src, key.dst) == ms);
  }
  if (report.settled)
    for (const costs::TransformKey& key : network_transforms(g, replan(costs))) CHECK(timed.contains(key));

  // Transforms no network ran cost the table's 1 us times the median in-network / table ratio.
  std::vector<double> ratios;
  for (const auto& [key, ms] : timed) ratios.push_back(ms / 0.001);
  const double factor = timing::summarize(ratios).median;
  CHECK(costs.untimed_transform_factor() == doctest::Approx(factor));
  CHECK(report.untimed_factor == doctest::Approx(factor));
  int untimed = 0;
  for (const costs::TransformEntry& entry : table.entries()) {
    const costs::TransformKey& key = entry.key;
    const costs::TransformKey spelled = costs::table_key(key.shape, key.src, key.dst);
    if (timed.contains(key) || spelled.src == spelled.dst) continue;  // timed, or no data moves at all
    ++untimed;
    CHECK(costs.transform_ms(key.shape, key.src, key.dst) == doctest::Approx(0.001 * factor));
  }
  CHECK(untimed > 0);
}

TEST_CASE("calibration scales a timed node's candidates: those that ran by their own factor, the others by the latest") {
  Planning planning;
  const graph::Graph& g = planning.graph;
  const auto replan = [&](const costs::MeasuredCostSource& costs) { return planning.plan(costs); };
  const costs::CalibrationReport report =
      costs::calibrate_in_network(g, planning.measured.source, replan, std::nullopt, {.max_rounds = 4, .profiled_runs = 3});
  const costs::MeasuredCostSource& isolated = planning.measured.source;
  const costs::MeasuredCostSource calibrated = isolated.repriced(report.repricing);

  const std::map<graph::NodeId, costs::InNetworkNode>& timed = report.repricing.in_network_nodes;
  CHECK(report.nodes == timed.size());
  CHECK(report.first_nodes.priced_ms > 0);
  CHECK(report.first_nodes.network_ms > 0);
  size_t priced_nodes = 0;
  for (size_t n = 0; n < g.nodes().size(); ++n) {
    const auto id = static_cast<graph::NodeId>(n);
    const std::vector<planning::NodeCandidate> before = isolated.candidates(g, id);
    const std::vector<planning::NodeCandidate> after = calibrated.candidates(g, id);
    REQUIRE(before.size() == after.size());
    const bool priced = before.front().ms > 0;
    priced_nodes += priced ? 1 : 0;
    // Every node the plan prices runs as a step of its network, with one of its candidates.
    CHECK(timed.contains(id) == priced);
    if (!timed.contains(id)) continue;
    const costs::InNetworkNode& node = timed.at(id);
    CHECK(!node.ran.empty());
    CHECK(node.latest > 0);
    CHECK(calibrated.node_price_factor(id) == node.latest);
    size_t ran = 0;
    for (size_t c = 0; c < before.size(); ++c) {
      const costs::CandidateId candidate = costs::candidate_id(before[c]);
      ran += node.ran.contains(candidate) ? 1 : 0;
      CHECK(after[c].ms == doctest::Approx(before[c].ms * node.factor_of(candidate)));
    }
    CHECK(ran == node.ran.size());  // what ran is among the candidates
  }
  CHECK(timed.size() == priced_nodes);
  CHECK(priced_nodes > 0);
}

TEST_CASE("a node's candidate that ran keeps its own factor; the others take the latest") {
  const auto tuned = [](int64_t config, int64_t block) {
    return costs::CandidateId{planning::TunedKernel{.task = "conv2d_NCHWc.x86", .family = "conv2d", .config_index = config},
                              {Layout::nchw()}, Layout::nchwc(block)};
  };
  const costs::CandidateId oc16 = tuned(3, 16), oc32 = tuned(4, 32), oc8 = tuned(2, 8);
  costs::InNetworkNode node{.ran = {{oc16, 1.5}, {oc32, 1.1}}, .latest = 1.1};
  CHECK(node.factor_of(oc16) == 1.5);
  CHECK(node.factor_of(oc32) == 1.1);
  CHECK(node.factor_of(oc8) == 1.1);
  node.latest = 1.3;
  CHECK(node.factor_of(oc8) == 1.3);
  CHECK(node.factor_of(oc16) == 1.5);
  // The same kernel writing another layout is another candidate.
  CHECK(node.factor_of(tuned(3, 8)) == 1.3);
}

TEST_CASE("a repricing naming a node the graph lacks is refused") {
  Planning planning;
  costs::Repricing repricing;
  repricing.in_network_nodes[static_cast<graph::NodeId>(planning.graph.nodes().size())] = {.latest = 2.0};
  CHECK_THROWS_AS((void)planning.measured.source.repriced(repricing), std::out_of_range);
}

TEST_CASE("transform times in a network cover exactly the transforms it runs") {
  Planning planning;
  const graph::Graph& g = planning.graph;
  const planning::Plan plan = planning.plan();
  kernels::CompiledNetwork network = kernels::CompiledNetwork::compile(g, planning::network_schedule(plan, g));
  const costs::InNetworkTransformTimes times = costs::time_transforms_in_network(network, g, 3, 1);
  std::set<costs::TransformKey> keys;
  for (const auto& [key, ms] : times) keys.insert(key);
  CHECK(keys == network_transforms(g, plan));
  CHECK(times.size() >= 1);
}

TEST_CASE("the measured source offers each task's default config beside the cheapest of its layout pair") {
  Planning planning;
  const graph::Graph& g = planning.graph;
  const auto defaults = default_candidates(g, planning.measured.source);
  const planning::Plan plan = planning.plan();
  size_t workloads = 0;
  for (size_t n = 0; n < g.nodes().size(); ++n) {
    const auto id = static_cast<graph::NodeId>(n);
    if (!graph::has_workload(g.node(id))) continue;
    ++workloads;
    REQUIRE(defaults.contains(id));
    std::set<std::pair<std::string, int64_t>> kernels;  // each kernel once
    for (const planning::NodeCandidate& candidate : planning.measured.source.candidates(g, id)) {
      const auto& kernel = std::get<planning::TunedKernel>(candidate.kernel);
      CHECK(kernels.insert({kernel.task, kernel.config_index}).second);
    }
  }
  CHECK(workloads == 3);  // conv1, conv2 and fc
  // The convs' defaults were timed only at 1 ms, above every config of every pair: isolated
  // prices never choose them.
  for (const char* name : {"conv1", "conv2"}) {
    const graph::NodeId id = *g.find_node(name);
    const costs::CandidateId untuned = costs::candidate_id(defaults.at(id));
    for (const planning::NodeCandidate& candidate : planning.measured.source.candidates(g, id))
      if (costs::candidate_id(candidate) != untuned) CHECK(candidate.ms < defaults.at(id).ms);
    CHECK(costs::candidate_id(plan.nodes.at(static_cast<size_t>(id))) != untuned);
  }
}

TEST_CASE("a default config that runs faster in the network than the tuned one is planned") {
  Planning planning;
  const graph::Graph& g = planning.graph;
  const auto defaults = default_candidates(g, planning.measured.source);
  const graph::NodeId conv2 = *g.find_node("conv2");
  REQUIRE(defaults.contains(conv2));
  // The default ran at a thousandth of its isolated 1 ms; no other candidate ran.
  costs::Repricing repricing;
  repricing.in_network_nodes[conv2] = {.ran = {{costs::candidate_id(defaults.at(conv2)), 1e-3}}, .latest = 1.0};
  const planning::Plan plan = planning.plan(planning.measured.source.repriced(repricing));
  CHECK(costs::candidate_id(plan.nodes.at(static_cast<size_t>(conv2))) == costs::candidate_id(defaults.at(conv2)));
}

TEST_CASE("calibration times a baseline plan first: its nodes' candidates carry their own factors") {
  Planning planning;
  const graph::Graph& g = planning.graph;
  const costs::MeasuredCostSource& source = planning.measured.source;
  const tuning::DefaultSeconds seconds =
      tuning::default_config_seconds(source.tasks(), tuning::load_record_log(planning.records.path()).records, kTarget);
  const costs::DefaultScheduleCosts untuned(source, g, seconds);
  const planning::Plan baseline = planning::plan_layouts(g, untuned, dp_planner()).plan;
  const auto replan = [&](const costs::MeasuredCostSource& costs) { return planning.plan(costs); };
  const costs::CalibrationReport report =
      costs::calibrate_in_network(g, source, replan, baseline, {.max_rounds = 4, .profiled_runs = 3});

  REQUIRE(report.baseline_nodes);
  CHECK(report.baseline_nodes->priced_ms > 0);
  CHECK(report.baseline_nodes->network_ms > 0);
  CHECK(report.summary().find("the baseline plan's nodes: priced") == 0);
  const auto defaults = default_candidates(g, source);
  REQUIRE(!defaults.empty());
  for (const auto& [id, candidate] : defaults) {
    // The baseline ran each node's default config, so that candidate has a factor of its own.
    CHECK(costs::candidate_id(baseline.nodes.at(static_cast<size_t>(id))) == costs::candidate_id(candidate));
    REQUIRE(report.repricing.in_network_nodes.contains(id));
    CHECK(report.repricing.in_network_nodes.at(id).ran.contains(costs::candidate_id(candidate)));
  }
  // Repriced, the baseline's nodes cost their fastest in-network times: at most what its
  // faster run's nodes took, and of that order (its defaults' isolated 1 ms prices are far
  // above; dividing the last timing by the factor the first had given priced them about
  // nine times below).
  double repriced_ms = 0;
  for (size_t n = 0; n < baseline.nodes.size(); ++n) {
    const planning::PlanNode& node = baseline.nodes[n];
    const auto timed = report.repricing.in_network_nodes.find(static_cast<graph::NodeId>(n));
    if (node.ms > 0 && timed != report.repricing.in_network_nodes.end())
      repriced_ms += node.ms * timed->second.factor_of(costs::candidate_id(node));
  }
  CHECK(repriced_ms <= report.baseline_nodes->network_ms * (1 + 1e-9));
  CHECK(repriced_ms >= 0.25 * report.baseline_nodes->network_ms);
}
