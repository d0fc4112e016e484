// The plan step: `optimize` (after tuning and timing transforms) and `plan` run the same
// function, so from the same files they write the same plan; it confirms and calibrates on
// small shapes; missing files are refused naming the command that makes them.

#include "layoutopt/pipeline/plan_network.h"

#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "layoutopt/pipeline/optimize.h"
#include "layoutopt/planning/plan.h"
#include "pipeline_fixtures.h"

using namespace layoutopt;
using namespace layoutopt::testing;

namespace {

/// The request `optimize` makes for its plan step.
pipeline::PlanRequest optimize_way(const pipeline::MeasurementFiles& files, const std::filesystem::path& plan,
                                   const pipeline::PlanPolicy& policy) {
  pipeline::OptimizeRequest request{
      .model = "conv-chain", .files = files, .plan = plan, .threads = 1, .plan_policy = policy, .quiet = true};
  return pipeline::plan_step_request(request);
}

/// The request `plan` makes from its flags (--threads 1 and `policy` as flags).
pipeline::PlanRequest plan_command_way(const pipeline::MeasurementFiles& files, const std::filesystem::path& plan,
                                       const pipeline::PlanPolicy& policy) {
  return {.costs = planning::CostKind::measured,
          .files = files,
          .plan = plan,
          .model = "conv-chain",
          .threads = 1,
          .policy = policy};
}

size_t line_count(const std::filesystem::path& path) {
  std::ifstream in(path);
  size_t lines = 0;
  for (std::string line; std::getline(in, line);) lines += !line.empty();
  return lines;
}

/// --confirm 1 --calibrate-rounds 0: plans from the files as they are, timing nothing.
pipeline::PlanPolicy untimed_policy() {
  pipeline::PlanPolicy policy;
  policy.confirm_timings = 1;
  policy.calibrate_rounds = 0;
  return policy;
}

}  // namespace

TEST_CASE("optimize's plan step and plan's write the same plan from the same files") {
  const graph::Graph graph = conv_chain();
  const ScratchFolder folder("same_plan");
  const pipeline::MeasurementFiles files = write_measurements(graph, folder.path() / "given");
  const pipeline::MeasurementFiles for_optimize = copy_measurements(files, folder.path() / "optimize");
  const pipeline::MeasurementFiles for_plan = copy_measurements(files, folder.path() / "plan");

  const pipeline::PlanReport optimized =
      pipeline::plan_network(graph, optimize_way(for_optimize, folder.path() / "optimize" / "plan.json", untimed_policy()));
  const pipeline::PlanReport planned =
      pipeline::plan_network(graph, plan_command_way(for_plan, folder.path() / "plan" / "plan.json", untimed_policy()));

  const planning::Plan optimize_file = planning::load_plan(folder.path() / "optimize" / "plan.json");
  const planning::Plan plan_file = planning::load_plan(folder.path() / "plan" / "plan.json");
  CHECK(planning::to_json(optimize_file) == planning::to_json(plan_file));
  CHECK(planning::same_schedule(optimize_file, plan_file));
  // What the step reports is what it wrote.
  CHECK(planning::to_json(optimized.planned.plan) == planning::to_json(optimize_file));
  CHECK(planning::to_json(planned.planned.plan) == planning::to_json(plan_file));

  CHECK(plan_file.costs == planning::CostKind::measured);
  CHECK(plan_file.solver == planning::SolverChoice::dp);
  CHECK(planned.planned.solution.optimal);
  CHECK(planned.cost_source == "tuning records and transform table");
  CHECK_NOTHROW(planning::validate_plan(plan_file, graph));
  CHECK_FALSE(planned.confirmation.has_value());
  CHECK_FALSE(planned.calibration.has_value());
  REQUIRE(planned.measurements != nullptr);
  CHECK(planned.measurements->target() == host_target());
  // Nothing was timed, so nothing was appended.
  CHECK(line_count(for_optimize.records) == line_count(files.records));
  CHECK(line_count(for_plan.records) == line_count(files.records));
}

TEST_CASE("optimize's plan step runs the plan command's defaults") {
  const pipeline::PlanRequest optimize = optimize_way({"r.jsonl", "t.json"}, "p.json", pipeline::OptimizeRequest{}.plan_policy);
  const pipeline::PlanRequest plan = plan_command_way({"r.jsonl", "t.json"}, "p.json", pipeline::PlanPolicy{});
  CHECK(optimize.costs == plan.costs);
  CHECK(optimize.files.records == plan.files.records);
  CHECK(optimize.files.transforms == plan.files.transforms);
  CHECK(optimize.plan == plan.plan);
  CHECK(optimize.model == plan.model);
  CHECK(optimize.threads == plan.threads);
  CHECK(optimize.policy.solver == plan.policy.solver);
  CHECK(optimize.policy.time_limit_s == plan.policy.time_limit_s);
  CHECK(optimize.policy.dp_memory_bytes == plan.policy.dp_memory_bytes);
  CHECK(optimize.policy.confirm_timings == plan.policy.confirm_timings);
  CHECK(optimize.policy.calibrate_rounds == plan.policy.calibrate_rounds);
  // optimize read the files already while tuning and timing transforms, and reports its
  // steps as notes.
  CHECK_FALSE(optimize.report_file_issues);
  CHECK(plan.report_file_issues);
  CHECK(optimize.events.confirmed);
  CHECK(optimize.events.calibrated);
}

TEST_CASE("the plan step confirms the chosen configs and calibrates the chosen transforms") {
  const graph::Graph graph = conv_chain();
  const ScratchFolder folder("confirm_calibrate");
  const pipeline::MeasurementFiles files = write_measurements(graph, folder.path());
  const size_t lines_before = line_count(files.records);
  pipeline::PlanPolicy policy;  // 3 timings per chosen config
  policy.calibrate_rounds = 1;
  pipeline::PlanRequest request = plan_command_way(files, folder.path() / "plan.json", policy);
  request.quiet = true;
  int confirmed = 0, calibrated = 0;
  request.events.confirmed = [&](const costs::ConfirmationReport& report) {
    ++confirmed;
    CHECK(report.rounds >= 1);
  };
  request.events.calibrated = [&](const costs::CalibrationReport& report) {
    ++calibrated;
    CHECK(calibrated == 1);
    CHECK(confirmed == 1);  // confirmation comes first
    CHECK(report.rounds == 1);
  };
  const pipeline::PlanReport report = pipeline::plan_network(graph, request);
  CHECK(confirmed == 1);
  CHECK(calibrated == 1);
  REQUIRE(report.confirmation.has_value());
  REQUIRE(report.calibration.has_value());
  // Every chosen config had one timing: each was timed twice more, the default plan's and
  // history best's choices as well as the graph-tuned plan's.
  CHECK(report.confirmation->configs >= 2);
  CHECK(report.confirmation->new_timings >= 2 * report.confirmation->configs);
  CHECK(line_count(files.records) == lines_before + static_cast<size_t>(report.confirmation->new_timings));
  REQUIRE(report.measurements != nullptr);
  CHECK(report.measurements->records().size() == line_count(files.records));
  const planning::Plan written = planning::load_plan(folder.path() / "plan.json");
  CHECK(planning::to_json(written) == planning::to_json(report.planned.plan));
  CHECK_NOTHROW(planning::validate_plan(written, graph));
}

TEST_CASE("a missing records or transforms file is refused naming the command that makes it") {
  const graph::Graph graph = conv_chain();
  const ScratchFolder folder("missing");
  const pipeline::MeasurementFiles files = write_measurements(graph, folder.path());
  const std::filesystem::path plan = folder.path() / "plan.json";

  const pipeline::MeasurementFiles no_records{folder.path() / "absent.jsonl", files.transforms};
  const std::string records_error = "records file '" + no_records.records.string() +
                                    "' does not exist: run `layoutopt tune conv-chain --records " +
                                    no_records.records.string() + "` first";
  CHECK_THROWS_WITH_AS((void)pipeline::plan_network(graph, plan_command_way(no_records, plan, untimed_policy())),
                       doctest::Contains(records_error.c_str()), std::runtime_error);
  const pipeline::MeasurementFiles no_table{files.records, folder.path() / "absent.json"};
  const std::string table_error = "transforms file '" + no_table.transforms.string() +
                                  "' does not exist: run `layoutopt bench-transforms conv-chain";
  CHECK_THROWS_WITH_AS((void)pipeline::plan_network(graph, optimize_way(no_table, plan, untimed_policy())),
                       doctest::Contains(table_error.c_str()), std::runtime_error);
  CHECK_FALSE(std::filesystem::exists(plan));
}

TEST_CASE("modelled costs plan without any file") {
  const graph::Graph graph = conv_chain();
  const ScratchFolder folder("modelled");
  pipeline::PlanRequest request{.costs = planning::CostKind::modelled, .plan = folder.path() / "plan.json"};
  request.quiet = true;
  const pipeline::PlanReport report = pipeline::plan_network(graph, request);
  CHECK(report.measurements == nullptr);
  CHECK_FALSE(report.confirmation.has_value());
  CHECK(report.planned.plan.costs == planning::CostKind::modelled);
  CHECK(planning::load_plan(folder.path() / "plan.json").costs == planning::CostKind::modelled);
}

TEST_CASE("measured costs need both files, modelled costs take neither, named as the front end spells them") {
  using planning::CostKind;
  const pipeline::MeasurementFiles both{"r.jsonl", "t.json"};
  const pipeline::MeasurementFiles records_only{"r.jsonl", ""};
  const pipeline::MeasurementFiles none;
  pipeline::check_cost_inputs(CostKind::measured, both);
  pipeline::check_cost_inputs(CostKind::modelled, none);
  CHECK_THROWS_WITH_AS(pipeline::check_cost_inputs(CostKind::measured, records_only),
                       doctest::Contains("give --transforms (or --model-costs"), std::runtime_error);
  CHECK_THROWS_WITH_AS(pipeline::check_cost_inputs(CostKind::measured, none),
                       doctest::Contains("give --records and --transforms (or --model-costs"), std::runtime_error);
  const pipeline::CostInputNames python{.records = "records=", .transforms = "transforms=", .model_costs = "model_costs=True"};
  CHECK_THROWS_WITH_AS(pipeline::check_cost_inputs(CostKind::modelled, records_only, python),
                       doctest::Contains("model_costs=True plans without measurements: give no records= or transforms="),
                       std::runtime_error);
}
