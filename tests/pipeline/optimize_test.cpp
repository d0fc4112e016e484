// The main job in one call on a two-conv graph with half a second of tuning and a transform
// table from an earlier run: it tunes, measures the default configs, extends the table,
// writes the plan step's plan and compares the four variants.

#include "layoutopt/pipeline/optimize.h"

#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "layoutopt/planning/plan.h"
#include "layoutopt/tuning/record_log.h"
#include "pipeline_fixtures.h"

using namespace layoutopt;
using namespace layoutopt::testing;

TEST_CASE("optimize_model tunes, times transforms, writes the plan step's plan and compares the variants") {
  const graph::Graph graph = conv_chain();
  const ScratchFolder folder("optimize");
  pipeline::OptimizeRequest request{.model = "conv-chain",
                                    .files = {folder.path() / "tune.jsonl", folder.path() / "transforms.json"},
                                    .plan = folder.path() / "plan.json",
                                    .threads = 1,
                                    .budget = pipeline::TuningBudget::explicit_seconds(0.5),
                                    .rounds = 1,
                                    .round_ms = 1.0,
                                    .quiet = true};
  // Every transform the tuned layouts may need is priced already, so none is timed here.
  write_every_transform({{1, 16, 8, 8}, {1, 32, 8, 8}}, request.files.transforms);
  const size_t table_entries = costs::TransformTable::load(request.files.transforms).entries().size();
  request.plan_policy.confirm_timings = 1;
  request.plan_policy.calibrate_rounds = 0;
  const pipeline::OptimizeReport report = pipeline::optimize_model(graph, request);

  CHECK(report.threads == 1);
  CHECK(report.target == host_target());
  CHECK(report.refused.empty());
  REQUIRE(report.rows.size() == 4);
  CHECK(report.rows[0].variant.name == "default");
  CHECK(report.plan_variant == "graph tuned (DP)");
  // The written plan is the plan step's, and the DP row planned the same from the same costs.
  const planning::Plan written = planning::load_plan(request.plan);
  CHECK(planning::to_json(written) == planning::to_json(report.plan.planned.plan));
  CHECK(planning::same_schedule(written, report.rows[2].planned.plan));
  for (const evaluation::VariantResult& row : report.rows) {
    CAPTURE(row.variant.name);
    CHECK(row.measured.count == 1);
    CHECK(row.measured.median > 0);
  }
  // The records hold the tuning trials and the default configs; the table what plans may need.
  CHECK(tuning::load_record_log(request.files.records).records.size() >= 3);
  CHECK(costs::TransformTable::load(request.files.transforms).entries().size() == table_entries);
  // Every phase that ran is timed once, in the order it ran; confirmation and calibration were off.
  std::vector<pipeline::Phase> phases;
  for (const auto& [phase, seconds] : report.phases.seconds()) {
    phases.push_back(phase);
    CHECK(seconds >= 0);
  }
  using enum pipeline::Phase;
  CHECK(phases == std::vector{tuning, default_configs, layout_variants, transforms, flexible_ops, planning, comparison});
  double sum = 0;
  for (const auto& entry : report.phases.seconds()) sum += entry.second;
  CHECK(report.phases.total_seconds() == doctest::Approx(sum));
}

TEST_CASE("phase times add up per phase, keep the order phases first ran in and survive a throwing phase") {
  pipeline::PhaseTimes times;
  CHECK(times.time(pipeline::Phase::transforms, [] { return 7; }) == 7);
  times.time(pipeline::Phase::tuning, [] {});
  times.time(pipeline::Phase::transforms, [] {});
  CHECK_THROWS_AS(times.time(pipeline::Phase::comparison, []() -> int { throw std::runtime_error("failed"); }),
                  std::runtime_error);
  REQUIRE(times.seconds().size() == 3);
  CHECK(times.seconds()[0].first == pipeline::Phase::transforms);
  CHECK(times.seconds()[1].first == pipeline::Phase::tuning);
  CHECK(times.seconds()[2].first == pipeline::Phase::comparison);
  pipeline::PhaseTimes later;
  later.time(pipeline::Phase::tuning, [] {});
  times.append(later);
  CHECK(times.seconds().size() == 3);
  CHECK(times.summary().find("transforms ") == 0);
  CHECK(times.summary().find(" s in all") != std::string::npos);
}

TEST_CASE("a comparison row is matched with the first earlier row that runs the same schedule") {
  const auto row = [](const std::string& node) {
    evaluation::VariantResult result;
    result.variant.name = node;
    result.planned.plan.nodes.push_back({.name = node});
    return result;
  };
  const std::vector<evaluation::VariantResult> rows{row("a"), row("b"), row("a"), row("a")};
  CHECK(pipeline::earlier_row_with_same_plan(rows, 0) == nullptr);
  CHECK(pipeline::earlier_row_with_same_plan(rows, 1) == nullptr);
  CHECK(pipeline::earlier_row_with_same_plan(rows, 2) == &rows[0]);
  CHECK(pipeline::earlier_row_with_same_plan(rows, 3) == &rows[0]);
}

TEST_CASE("optimize names the row that beat the written plan in every round, not one within the noise") {
  // Rows with a schedule of their own (one node named after the row) and their rounds' medians.
  const auto row = [](const std::string& name, const std::string& node, double min, double median, double max) {
    evaluation::VariantResult result;
    result.variant.name = name;
    result.variant.costs = name == "default" ? evaluation::VariantCosts::default_schedules
                                             : evaluation::VariantCosts::measured;
    result.planned.plan.nodes.push_back({.name = node});
    result.measured.min = min;
    result.measured.median = median;
    result.measured.max = max;
    return result;
  };
  pipeline::OptimizeReport report;
  report.plan_variant = "graph tuned (DP)";
  report.rows = {row("default", "d", 9.30, 9.35, 9.40), row("history best", "h", 9.20, 9.30, 9.45),
                 row("graph tuned (DP)", "g", 9.45, 9.50, 9.60)};
  auto faster = pipeline::row_faster_than_written(report);
  REQUIRE(faster);  // history best's slowest round (9.45) reaches the written plan's fastest
  CHECK(faster->faster == &report.rows[0]);
  CHECK(faster->written == &report.rows[2]);

  report.rows[1].measured = report.rows[0].measured;  // both beat it: the faster median wins
  report.rows[1].measured.median = 9.32;
  CHECK(pipeline::row_faster_than_written(report)->faster == &report.rows[1]);

  report.rows[0].measured.max = report.rows[1].measured.max = 9.45;  // within the noise
  CHECK_FALSE(pipeline::row_faster_than_written(report));

  report.rows[0].measured.max = 9.40;
  report.rows[0].planned.plan.nodes.front().name = "g";  // the written plan's schedule: noise
  CHECK_FALSE(pipeline::row_faster_than_written(report));

  report.plan_variant = "graph tuned (PBQP)";  // not among the rows
  CHECK_FALSE(pipeline::row_faster_than_written(report));
}

