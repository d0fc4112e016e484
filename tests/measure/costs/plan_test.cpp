// Plans: the file round trip, refusing a plan made for another graph, and the measured cost
// source feeding the planner from a synthetic record log and transform table. No timing is
// asserted: the flexible ops are timed, but only their presence in the plan is checked.

#include "layoutopt/planning/plan.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <variant>

#include "layoutopt/graph/fingerprint.h"
#include "layoutopt/graph/zoo/zoo.h"
#include "layoutopt/planning/analytic_cost_model.h"
#include "layoutopt/costs/measured_cost_source.h"
#include "layoutopt/planning/plan_dot.h"
#include "layoutopt/planning/planner.h"
#include "layoutopt/tuning/record_log.h"
#include "layoutopt/tuning/tuning_session.h"
#include "plan_fixtures.h"
#include "tuning_fixtures.h"

using namespace layoutopt;
using testing::ScratchFile;

namespace {

using namespace layoutopt::testing;

planning::LayoutAssignment analytic_assignment(const graph::Graph& graph, const planning::CostSource& costs) {
  const planning::LayoutProblem problem(graph, costs);
  std::vector<int> first(problem.problem().node_count(), 0);  // any assignment will do for a plan
  return problem.decode(first, costs);
}

planning::Plan analytic_plan(const graph::Graph& graph) {
  const planning::AnalyticCostModel model;
  // No solver ran: the first candidate of every node.
  return planning::make_plan(graph, analytic_assignment(graph, model),
                             {kTarget, planning::CostKind::modelled, planning::SolverChoice::automatic});
}

}  // namespace

TEST_CASE("a plan survives the JSON round trip") {
  const graph::Graph g = tiny_graph();
  planning::Plan plan = analytic_plan(g);
  plan.transforms.push_back({"conv1", layout::Layout::nchwc(16), layout::Layout::nchwc(8), 0.012});
  const ScratchFile file("plan.json");
  planning::save_plan(plan, file.path());
  const planning::Plan loaded = planning::load_plan(file.path());
  CHECK(planning::to_json(loaded) == planning::to_json(plan));
  CHECK(loaded.nodes.at(0).workload == plan.nodes.at(0).workload);
  CHECK(!loaded.nodes.at(0).workload.empty());
  CHECK(loaded.transforms.at(0).to == layout::Layout::nchwc(8));
  CHECK_THROWS_WITH_AS(planning::plan_from_json(nlohmann::json{{"format", "something-else"}}),
                       doctest::Contains("not a plan"), planning::PlanError);
}

TEST_CASE("plans with the same kernels, layouts and transforms are the same schedule, whatever they predict") {
  const planning::Plan plan = analytic_plan(tiny_graph());
  REQUIRE(plan.nodes.size() >= 2);
  planning::Plan relabelled = plan;
  relabelled.solver = planning::SolverChoice::pbqp;
  relabelled.costs = planning::CostKind::measured;
  relabelled.predicted_ms *= 1.5;
  relabelled.nodes.at(0).ms *= 2;
  relabelled.nodes.at(0).label = "another label";
  CHECK(planning::same_schedule(plan, relabelled));

  planning::Plan other_config = plan;
  other_config.nodes.at(0).kernel = planning::CanonicalKernel{};
  CHECK_FALSE(planning::same_schedule(plan, other_config));
  planning::Plan other_layout = plan;
  other_layout.nodes.at(1).output =
      other_layout.nodes.at(1).output == layout::Layout::nchw() ? layout::Layout::nchwc(8) : layout::Layout::nchw();
  CHECK_FALSE(planning::same_schedule(plan, other_layout));
  planning::Plan with_transform = plan;
  with_transform.transforms.push_back({"conv1", layout::Layout::nchwc(16), layout::Layout::nchwc(8), 0.012});
  CHECK_FALSE(planning::same_schedule(plan, with_transform));
  planning::Plan other_transform = with_transform;
  other_transform.transforms.back().to = layout::Layout::nchwc(4);
  CHECK_FALSE(planning::same_schedule(with_transform, other_transform));
  planning::Plan repriced_transform = with_transform;
  repriced_transform.transforms.back().ms *= 3;
  CHECK(planning::same_schedule(with_transform, repriced_transform));
}

TEST_CASE("validate_plan rejects a plan made for another graph") {
  const planning::Plan plan = analytic_plan(tiny_graph());
  CHECK_NOTHROW(planning::validate_plan(plan, tiny_graph()));
  CHECK_THROWS_WITH_AS(planning::validate_plan(plan, tiny_graph({.conv2_name = "conv2b"})),
                       doctest::Contains("names node 'conv2'"), planning::PlanError);
  CHECK_THROWS_WITH_AS(planning::validate_plan(plan, tiny_graph({.conv1_stride = 2})),
                       doctest::Contains("node 'conv1' changed"), planning::PlanError);
  CHECK_THROWS_WITH_AS(planning::validate_plan(plan, graph::zoo::build("squeezenet-1.1")),
                       doctest::Contains("nodes"), planning::PlanError);
}

/// x -> conv -> relu a -> relu b -> add(a, b), or add(x, b): the same names, ops and
/// workloads, wired differently.
graph::Graph residual_pair(bool add_reads_input) {
  graph::Graph g("pair");
  const auto x = g.add_input("x", {{1, 16, 4, 4}});
  const auto w = g.add_parameter("w", {16, 16, 1, 1}, graph::WeightData::seeded({1}, 16 * 16));
  const auto a = g.add_node("a", graph::Relu{}, {g.add_node("conv", graph::Conv2d{}, {x, w})});
  const auto b = g.add_node("b", graph::Relu{}, {a});
  g.add_output(g.add_node("sum", graph::Add{}, {add_reads_input ? x : a, b}));
  return g;
}

TEST_CASE("validate_plan rejects a graph wired differently under the same names, ops and workloads") {
  const graph::Graph g = residual_pair(false);
  const planning::Plan plan = analytic_plan(g);
  CHECK(plan.graph_fingerprint == graph::structure_fingerprint(g));
  CHECK_NOTHROW(planning::validate_plan(plan, g));
  CHECK_THROWS_WITH_AS(planning::validate_plan(plan, residual_pair(true)), doctest::Contains("other wiring or shapes"),
                       planning::PlanError);
  // A plan written before plans recorded the structure is checked by names, ops and workloads.
  planning::Plan old = plan;
  old.graph_fingerprint.clear();
  CHECK_NOTHROW(planning::validate_plan(old, residual_pair(true)));
  CHECK(planning::plan_from_json(planning::to_json(old)).graph_fingerprint.empty());
  CHECK(planning::plan_from_json(planning::to_json(plan)).graph_fingerprint == plan.graph_fingerprint);
}

TEST_CASE("measured costs plan a tiny graph consistently") {
  const graph::Graph g = tiny_graph();
  const ScratchFile records("records.jsonl");
  write_records(records.path(), tuning::extract_tasks(g));
  const costs::TransformTable table = synthetic_table(g);
  const MeasuredCosts measured(g, tuning::load_record_log(records.path()).records, table, records.path());
  const costs::MeasuredCostSource& costs = measured.source;
  CHECK(costs.untuned_tasks().empty());
  const planning::PlanResult result = planning::plan_layouts(g, costs, dp_planner());
  const planning::Plan& plan = result.plan;
  REQUIRE(result.solution.optimal);
  CHECK(plan.predicted_ms == doctest::Approx(result.solution.cost));
  CHECK(plan.kernel_ms() + plan.transform_ms() == doctest::Approx(plan.predicted_ms));
  CHECK(plan.solver == planning::SolverChoice::dp);
  CHECK_NOTHROW(planning::validate_plan(plan, g));
  const auto kernel = [&](const char* name) {
    for (const planning::PlanNode& node : plan.nodes)
      if (node.name == name) return node.kernel;
    FAIL("no node " << name);
    return planning::KernelChoice();
  };
  const planning::KernelChoice conv1 = kernel("conv1");
  REQUIRE(std::holds_alternative<planning::TunedKernel>(conv1));
  CHECK(std::get<planning::TunedKernel>(conv1).family == "conv2d");
  CHECK(std::get<planning::TunedKernel>(conv1).knobs.contains("tile_oc"));
  CHECK(std::holds_alternative<planning::TunedKernel>(kernel("fc")));
  const planning::KernelChoice pool1 = kernel("pool1");
  REQUIRE(std::holds_alternative<planning::FlexibleKernel>(pool1));
  CHECK(std::get<planning::FlexibleKernel>(pool1).kernel == "pool2d");
  CHECK(std::holds_alternative<planning::CanonicalKernel>(kernel("flatten")));
  // The file keeps the choices as they were.
  const planning::Plan reloaded = planning::plan_from_json(nlohmann::json::parse(planning::to_json(plan).dump()));
  CHECK(planning::same_schedule(reloaded, plan));
  CHECK(planning::to_json(reloaded) == planning::to_json(plan));
}

TEST_CASE("layouts the table holds from earlier runs are not offered; the records' are") {
  const graph::Graph g = tiny_graph();
  const ScratchFile records("records.jsonl");
  // Every kernel tuned only in 8-channel blocks; the table knows every friendly block
  // (4, 8, 16, 32), as one grown over runs with other records would.
  // (fc's 10 outputs take no block.)
  write_records(records.path(), tuning::extract_tasks(g), [](const tuning::TuningTask& task, const kernels::OpLayouts& l) {
    const bool dense = task.op.family() == kernels::OpFamily::dense;
    return l.input.block_of('C') == 8 && l.output.block_of('C') == (dense ? 1 : 8);
  });
  const costs::TransformTable table = synthetic_table(g);
  const MeasuredCosts measured(g, tuning::load_record_log(records.path()).records, table, records.path());
  const costs::MeasuredCostSource& costs = measured.source;
  std::set<int64_t> pool_blocks;
  for (const planning::NodeCandidate& c : costs.candidates(g, *g.find_node("pool1")))
    pool_blocks.insert(c.output.block_of('C'));
  CHECK(pool_blocks.contains(1));
  CHECK(pool_blocks.contains(8));
  // The default configs' blocks (the largest of 16 and 8) are offered as well; 4 and 32 are
  // neither tuned nor default.
  CHECK_FALSE(pool_blocks.contains(4));
  CHECK_FALSE(pool_blocks.contains(32));
}

TEST_CASE("missing records and transform times are errors naming the node or shape") {
  const graph::Graph g = tiny_graph();
  const ScratchFile records("records.jsonl");
  write_records(records.path(), {tuning::extract_tasks(g).front()});  // conv1 only
  const costs::TransformTable table = synthetic_table(g);
  const MeasuredCosts measured(g, tuning::load_record_log(records.path()).records, table, records.path());
  const costs::MeasuredCostSource& costs = measured.source;
  CHECK(costs.untuned_tasks().size() == 3);  // conv1's Winograd algorithm, conv2 and fc
  CHECK_THROWS_WITH_AS(planning::LayoutProblem(g, costs), doctest::Contains("node 'conv2'"), std::runtime_error);
  CHECK_THROWS_WITH_AS(planning::LayoutProblem(g, costs), doctest::Contains("layoutopt tune tiny"), std::runtime_error);

  const costs::TransformTable empty;
  const MeasuredCosts without_table(g, {}, empty, records.path());
  const costs::MeasuredCostSource& no_table = without_table.source;
  const graph::Shape shape{1, 32, 4, 4};
  CHECK_THROWS_WITH_AS((void)no_table.transform_ms(shape, layout::Layout::nchw(), layout::Layout::nchwc(8)),
                       doctest::Contains("[1, 32, 4, 4] NCHW -> NCHW8c"), std::runtime_error);
  CHECK_THROWS_WITH_AS((void)no_table.transform_ms(shape, layout::Layout::nchw(), layout::Layout::nchwc(8)),
                       doctest::Contains("layoutopt bench-transforms"), std::runtime_error);
  // Same memory order: free, with or without a table.
  CHECK(no_table.transform_ms({1, 32, 1, 1}, layout::Layout::nchwc(8), layout::Layout::nchw()) == 0.0);
}

TEST_CASE("a drawn plan colours nodes by layout and puts transforms on their edges") {
  const graph::Graph g = tiny_graph();
  planning::Plan plan = analytic_plan(g);
  const std::string conv1_out = g.value(g.node(*g.find_node("conv1")).output).name;
  for (planning::PlanNode& node : plan.nodes) {
    if (node.name == "conv1") node.output = layout::Layout::nchwc(16);
    if (node.name == "relu1") node.inputs = {layout::Layout::nchwc(8)};
  }
  plan.transforms = {{conv1_out, layout::Layout::nchwc(16), layout::Layout::nchwc(8), 0.012}};
  const std::string dot = graph::to_dot(g, planning::plan_dot_style(plan, g));
  CHECK(dot.find("e0 [shape=diamond") != std::string::npos);
  CHECK(dot.find("NCHW16c -> NCHW8c, 0.012 ms") != std::string::npos);
  CHECK(dot.find("n0 -> e0;") != std::string::npos);  // conv1 feeds the transform ...
  CHECK(dot.find("e0 -> n1;") != std::string::npos);  // ... which feeds relu1
  CHECK(dot.find("n0 -> n1;") == std::string::npos);
  CHECK(dot.find("#c8e6c9") != std::string::npos);  // NCHW16c's colour on conv1
}

TEST_CASE("auto falls back to pbqp when dp refuses the problem") {
  const graph::Graph g = tiny_graph();
  const planning::AnalyticCostModel model;
  planning::PlannerOptions options{.solver = planning::SolverChoice::automatic, .solve = {}, .target = kTarget,
                                   .costs = planning::CostKind::modelled};
  options.solve.memory_budget_bytes = 1;  // no table fits: dp must refuse
  const planning::PlanResult result = planning::plan_layouts(g, model, options);
  CHECK(result.solver == planning::SolverChoice::pbqp);
  CHECK(result.plan.solver == planning::SolverChoice::pbqp);
  CHECK(!result.fallback_reason.empty());
  CHECK(result.plan.predicted_ms == doctest::Approx(result.solution.cost));
  // The dominated candidates were dropped once, for both solvers, and the answer is PBQP's own.
  CHECK(result.solution.stats.contains("removed_candidates"));
  options.solver = planning::SolverChoice::pbqp;
  CHECK(result.solution.cost == doctest::Approx(planning::plan_layouts(g, model, options).solution.cost));
}
