// From measured costs to a running network: plans read back as schedules, the baseline cost
// sources, the default configs in the record log, and the four variants of `optimize` on a
// tiny graph with a synthetic record log and transform table.

#include "layoutopt/evaluation/end_to_end.h"

#include <doctest/doctest.h>

#include "layoutopt/timing/steady_rounds.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/graph/workloads.h"
#include "layoutopt/kernels/network/compiled_network.h"
#include "layoutopt/kernels/reference/graph_executor.h"
#include "layoutopt/planning/analytic_cost_model.h"
#include "layoutopt/costs/baseline_costs.h"
#include "layoutopt/tuning/default_configs.h"
#include "layoutopt/planning/plan_schedule.h"
#include "plan_fixtures.h"
#include "support/relative_approx.h"
#include "support/tolerances.h"
#include "tuning_fixtures.h"

using namespace layoutopt;
using namespace layoutopt::testing;

namespace {

/// Length of the task key's text before keys were typed: synthetic times stay as they were.
size_t old_key_length(const tuning::TuningTask& task) {
  return task.name.size() + 1 + tuning::autotvm_args(task.task_key()).dump().size();
}

/// Seconds by config index: every measurement of the same config gives the same time.
class IndexMeasurer : public tuning::Measurer {
 public:
  tuning::MeasureResult measure(const tuning::TuningTask& task, int64_t index) override {
    ++calls;
    tuning::MeasureResult r;
    r.costs_s = {1e-5 * static_cast<double>(1 + index % 7) + 1e-9 * static_cast<double>(old_key_length(task))};
    return r;
  }
  int calls = 0;
};

/// The tiny graph with its synthetic log (tuned pairs and default configs) and table.
struct MeasuredTiny {
  graph::Graph graph = tiny_graph();
  ScratchFile records{"records.jsonl"};
  std::vector<tuning::MeasureRecord> log;
  costs::TransformTable table;
  tuning::DefaultSeconds default_seconds;

  MeasuredTiny() {
    const auto tasks = tuning::extract_tasks(graph);
    write_records(records.path(), tasks);
    log = tuning::load_record_log(records.path()).records;
    IndexMeasurer measurer;
    (void)tuning::measure_default_configs(tasks, log, measurer, kTarget,
                                           [&](const tuning::MeasureRecord& r) { log.push_back(r); });
    default_seconds = tuning::default_config_seconds(tasks, log, kTarget);
    table = synthetic_table(graph);
  }
  [[nodiscard]] MeasuredCosts costs() const { return {graph, log, table, records.path()}; }
};

}  // namespace

TEST_CASE("default configs are measured once and read back from the log") {
  const graph::Graph g = tiny_graph();
  const auto tasks = tuning::extract_tasks(g);
  std::vector<tuning::MeasureRecord> log;
  IndexMeasurer measurer;
  const auto first = tuning::measure_default_configs(tasks, log, measurer, kTarget,
                                                      [&](const tuning::MeasureRecord& r) { log.push_back(r); });
  CHECK(first.size() == tasks.size());
  CHECK(measurer.calls == static_cast<int>(tasks.size()));
  const auto again = tuning::measure_default_configs(tasks, log, measurer, kTarget,
                                                      [&](const tuning::MeasureRecord& r) { log.push_back(r); });
  CHECK(again.empty());
  const auto seconds = tuning::default_config_seconds(tasks, log, kTarget);
  CHECK(seconds.size() == tasks.size());
  for (const tuning::TuningTask& task : tasks)
    CHECK(seconds.at(task.task_key()) == testing::relative_approx(1e-5 * static_cast<double>(1 + task.op.default_index() % 7) +
                                                    1e-9 * static_cast<double>(old_key_length(task))));
  // Records of another target do not count.
  CHECK(tuning::default_config_seconds(tasks, log, "llvm -mcpu=other -num-cores=1").empty());
}

TEST_CASE("default configs are priced by the rule that prices tuned configs") {
  const graph::Graph g = tiny_graph();
  const auto tasks = tuning::extract_tasks(g);
  REQUIRE(tasks.size() > 1);
  std::vector<tuning::MeasureRecord> log;
  IndexMeasurer measurer;
  (void)tuning::measure_default_configs(tasks, log, measurer, kTarget,
                                         [&](const tuning::MeasureRecord& r) { log.push_back(r); });
  const auto once = tuning::default_config_seconds(tasks, log, kTarget);
  // The first task's default is timed twice more, at 1.5x and 2.5x its first timing.
  const tuning::TuningTask& retimed = tasks.front();
  for (const double ratio : {1.5, 2.5}) {
    tuning::MeasureResult result;
    result.costs_s = {ratio * once.at(retimed.task_key())};
    log.push_back(tuning::make_record(kTarget, retimed, retimed.op.default_index(), result));
  }
  const auto priced = tuning::default_config_seconds(tasks, log, kTarget);
  // It costs the median of its later timings; every default still timed once costs its
  // timing times the pooled retiming ratio (2), as a once-timed tuned config would.
  CHECK(priced.at(retimed.task_key()) == testing::relative_approx(2.0 * once.at(retimed.task_key())));
  for (size_t t = 1; t < tasks.size(); ++t)
    CHECK(priced.at(tasks[t].task_key()) == testing::relative_approx(2.0 * once.at(tasks[t].task_key())));
}

TEST_CASE("graph tuned is never predicted slower than the default plan it was free to choose") {
  const MeasuredTiny tiny;
  const auto tasks = tuning::extract_tasks(tiny.graph);
  const tuning::TaskIndex index_of(tasks);
  // The default configs, timed once, are the fastest of every task...
  std::vector<tuning::MeasureRecord> log = tiny.log;
  for (tuning::MeasureRecord& record : log) {
    const tuning::TuningTask& task = tasks.at(index_of.find(record, kTarget).value());
    if (task.config_index(record.knob_map()) == task.op.default_index()) record.result.costs_s = {1e-6};
  }
  // ...and one tuned config re-timed at 3x its tuning timing: every config timed once, the
  // defaults included, now costs 3x its timing in the measured source. Priced at their raw
  // timings the default row would be predicted 3x cheaper than the same configs there.
  const tuning::MeasureRecord tuned = log.front();
  for (int k = 0; k < 2; ++k) {
    tuning::MeasureRecord again = tuned;
    again.result.costs_s = {3.0 * tuned.result.seconds()};
    log.push_back(again);
  }
  const MeasuredCosts measured(tiny.graph, log, tiny.table, tiny.records.path());
  const costs::MeasuredCostSource& costs = measured.source;
  const auto default_seconds = tuning::default_config_seconds(tasks, log, kTarget);
  const planning::PlannerOptions options = dp_planner();
  const auto plan = [&](evaluation::VariantCosts variant_costs) {
    return evaluation::plan_variant(tiny.graph, {"row", variant_costs, planning::SolverChoice::dp}, costs, default_seconds, options)
        .plan.predicted_ms;
  };
  CHECK(plan(evaluation::VariantCosts::measured) <= plan(evaluation::VariantCosts::default_schedules) + 1e-12);
  CHECK(plan(evaluation::VariantCosts::measured) <= plan(evaluation::VariantCosts::fastest_kernels) + 1e-12);
}

TEST_CASE("history best offers each conv / dense only its fastest kernel") {
  const MeasuredTiny tiny;
  const MeasuredCosts measured = tiny.costs();
  const costs::MeasuredCostSource& costs = measured.source;
  const costs::FastestKernelCosts fastest(costs);
  for (size_t n = 0; n < tiny.graph.nodes().size(); ++n) {
    const auto id = static_cast<graph::NodeId>(n);
    const auto all = costs.candidates(tiny.graph, id);
    const auto kept = fastest.candidates(tiny.graph, id);
    if (!graph::has_workload(tiny.graph.node(id))) {
      CHECK(kept.size() == all.size());
      continue;
    }
    REQUIRE(kept.size() == 1);
    for (const planning::NodeCandidate& c : all) CHECK(kept[0].ms <= c.ms);
  }
}

TEST_CASE("the default baseline runs the default configs in the fixed blocks") {
  const MeasuredTiny tiny;
  const MeasuredCosts measured = tiny.costs();
  const costs::MeasuredCostSource& costs = measured.source;
  const costs::DefaultScheduleCosts defaults(costs, tiny.graph, tiny.default_seconds);
  const auto conv1 = defaults.candidates(tiny.graph, *tiny.graph.find_node("conv1"));
  REQUIRE(conv1.size() == 1);
  CHECK(conv1[0].inputs[0].str() == "NCHW16c");  // 16 input channels
  CHECK(conv1[0].output.str() == "NCHW16c");      // 32 output channels: the default block is 16
  CHECK(std::holds_alternative<planning::TunedKernel>(conv1[0].kernel));
  const auto pool = defaults.candidates(tiny.graph, *tiny.graph.find_node("pool1"));
  REQUIRE(pool.size() == 1);
  CHECK(pool[0].output.str() == "NCHW16c");
  const costs::DefaultScheduleCosts unmeasured(costs, tiny.graph, {});
  CHECK_THROWS_WITH_AS((void)unmeasured.candidates(tiny.graph, *tiny.graph.find_node("conv1")),
                       doctest::Contains("default config"), std::runtime_error);
}

TEST_CASE("the default baseline's convs take the in-network factor of their node, as tuned candidates do") {
  const MeasuredTiny tiny;
  const MeasuredCosts measured = tiny.costs();
  const graph::NodeId conv1 = *tiny.graph.find_node("conv1");
  const graph::NodeId pool1 = *tiny.graph.find_node("pool1");
  costs::Repricing repricing;
  repricing.in_network_nodes = {{conv1, {.latest = 1.5}}, {pool1, {.latest = 2.0}}};
  const costs::MeasuredCostSource calibrated = measured.source.repriced(repricing);
  const costs::DefaultScheduleCosts isolated(measured.source, tiny.graph, tiny.default_seconds);
  const costs::DefaultScheduleCosts scaled(calibrated, tiny.graph, tiny.default_seconds);
  CHECK(scaled.node_price_factor(conv1) == 1.5);
  CHECK(scaled.candidates(tiny.graph, conv1)[0].ms == testing::relative_approx(1.5 * isolated.candidates(tiny.graph, conv1)[0].ms));
  CHECK(scaled.candidates(tiny.graph, pool1)[0].ms == testing::relative_approx(2.0 * isolated.candidates(tiny.graph, pool1)[0].ms));
  const graph::NodeId conv2 = *tiny.graph.find_node("conv2");
  CHECK(scaled.candidates(tiny.graph, conv2)[0].ms == testing::relative_approx(isolated.candidates(tiny.graph, conv2)[0].ms));
}

TEST_CASE("a measured plan compiles to a network that computes what the reference computes") {
  const MeasuredTiny tiny;
  const MeasuredCosts measured = tiny.costs();
  const costs::MeasuredCostSource& costs = measured.source;
  const planning::PlanResult planned = planning::plan_layouts(tiny.graph, costs, dp_planner());
  const kernels::NetworkSchedule schedule = planning::network_schedule(planned.plan, tiny.graph);
  REQUIRE(schedule.nodes.size() == tiny.graph.nodes().size());
  const graph::NodeId conv1 = *tiny.graph.find_node("conv1");
  CHECK(schedule.nodes[static_cast<size_t>(conv1)].knobs.contains("tile_oc"));
  CHECK(schedule.nodes[static_cast<size_t>(conv1)].output == planned.plan.nodes[static_cast<size_t>(conv1)].output);

  kernels::CompiledNetwork network = kernels::CompiledNetwork::compile(tiny.graph, schedule);
  CHECK(network.summary().transforms == planned.plan.transforms.size());
  kernels::reference::HostTensor input({1, 16, 8, 8});
  for (size_t i = 0; i < input.data.size(); ++i) input.data[i] = graph::uniform_at(9, i, 0.0f, 1.0f);
  const auto expected = kernels::reference::run_graph(tiny.graph, {input});
  CHECK(kernels::reference::max_relative_difference(expected[0], network.run({input})[0]) < kRescheduledRelative);
}

TEST_CASE("plans that cannot be compiled are refused naming the reason") {
  const graph::Graph g = tiny_graph();
  const planning::AnalyticCostModel model;
  const planning::PlanResult modelled = planning::plan_layouts(g, model, dp_planner(planning::CostKind::modelled));
  CHECK_THROWS_WITH_AS((void)planning::network_schedule(modelled.plan, g), doctest::Contains("--model-costs"),
                       planning::PlanError);
  CHECK_THROWS_WITH_AS((void)planning::network_schedule(modelled.plan, tiny_graph({.conv2_name = "other"})),
                       doctest::Contains("names node 'conv2'"), planning::PlanError);
  const MeasuredTiny tiny;
  const MeasuredCosts measured = tiny.costs();
  const costs::MeasuredCostSource& costs = measured.source;
  planning::Plan broken = planning::plan_layouts(tiny.graph, costs, dp_planner()).plan;
  CHECK_NOTHROW((void)planning::network_schedule(broken, tiny.graph));
  nlohmann::json document = nlohmann::json::parse(planning::to_json(broken).dump());
  document["nodes"][2]["output"] = "NCHW16";  // pool1: not a layout, refused as the plan is read
  CHECK_THROWS_WITH_AS((void)planning::plan_from_json(document), doctest::Contains("node 'pool1'"), planning::PlanError);
  broken.nodes[0].kernel = planning::CanonicalKernel{};  // conv1 without its tuned config
  CHECK_THROWS_WITH_AS((void)planning::network_schedule(broken, tiny.graph),
                       doctest::Contains("node 'conv1' (conv2d)"), planning::PlanError);
}

TEST_CASE("the four variants of optimize plan, compile and time the same graph") {
  const MeasuredTiny tiny;
  const MeasuredCosts measured = tiny.costs();
  const costs::MeasuredCostSource& costs = measured.source;
  evaluation::EndToEndOptions options{dp_planner(),
                                      {.warmup_runs = 1, .min_repeats = 3, .min_repeat_ms = 1.0, .threads = 1},
                                      2};
  std::vector<std::string> refused;
  std::map<std::string, evaluation::VariantResult> rows;
  for (evaluation::VariantResult& row :
       evaluation::evaluate_variants(tiny.graph, evaluation::standard_variants(), costs, tiny.default_seconds, options, &refused))
    rows.emplace(row.variant.name, std::move(row));
  CHECK(refused.empty());
  REQUIRE(rows.size() == 4);
  const double optimum = rows.at("graph tuned (DP)").predicted_ms();
  CHECK(rows.at("graph tuned (DP)").planned.solution.optimal);
  CHECK(rows.at("graph tuned (PBQP)").predicted_ms() == testing::relative_approx(optimum));
  // History best only removes choices from the same problem: never better than the optimum.
  CHECK(rows.at("history best").predicted_ms() >= optimum - 1e-12);
  for (const auto& entry : rows) {
    // Not a structured binding: clang 14 (the sanitized build) cannot capture one in CAPTURE.
    const std::string& name = entry.first;
    const evaluation::VariantResult& row = entry.second;
    CAPTURE(name);
    CHECK(row.predicted_ms() == testing::relative_approx(row.planned.plan.kernel_ms() + row.planned.plan.transform_ms()));
    CHECK(row.measured.count == 2);  // one median per kept round
    CHECK(row.retimed_rounds <= options.max_retimed_rounds);
    CHECK(row.runs >= (2 + row.retimed_rounds) * 3);  // re-timed rounds ran too
    // Either the kept rounds agree within the tolerance, or every re-timing was spent.
    CHECK((row.rounds_steady || row.retimed_rounds == options.max_retimed_rounds));
    CHECK((!row.rounds_steady ||
           row.measured.max <= timing::kRoundSwingTolerance * row.measured.min * (1 + 1e-12)));
    CHECK(row.measured.median > 0);
    CHECK(row.compiled.fallbacks == 0);
    // The yardstick of each row: its plan's FLOPs at the measured peak, on the run's threads.
    CHECK(row.limit.threads == 1);
    CHECK(row.limit.peak_gflops > 0);
    CHECK(row.limit.direct_gflop == doctest::Approx(2e-9 * static_cast<double>(graph::mac_count(tiny.graph))));
    CHECK(row.limit.executed_gflop > 0);
    CHECK(row.limit_fraction() == doctest::Approx(row.limit.limit_ms() / row.measured.median));
  }
}

TEST_CASE("a variant whose solver refuses the problem is reported, the others still run") {
  const MeasuredTiny tiny;
  const MeasuredCosts measured = tiny.costs();
  const costs::MeasuredCostSource& costs = measured.source;
  evaluation::EndToEndOptions options{dp_planner(),
                                      {.warmup_runs = 0, .min_repeats = 1, .min_repeat_ms = 0.0, .threads = 1},
                                      1};
  options.planner.solve.memory_budget_bytes = 1;  // no DP table fits
  std::vector<std::string> refused;
  const auto rows = evaluation::evaluate_variants(
      tiny.graph,
      {{"dp", evaluation::VariantCosts::measured, planning::SolverChoice::dp},
       {"pbqp", evaluation::VariantCosts::measured, planning::SolverChoice::pbqp}},
      costs, tiny.default_seconds, options, &refused);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].variant.name == "pbqp");
  REQUIRE(refused.size() == 1);
  CHECK(refused[0].find("dp: dp refuses") == 0);
}
