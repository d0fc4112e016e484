// The measured cost source's plan of the tiny graph, from the fixture's records and transform
// table and fixed flexible-op times, against a plan file written before the plan held typed
// layouts: tuned, flexible and canonical kernels and the transforms read and written again
// byte for byte, and planned again the same.

#include <doctest/doctest.h>

#include "layoutopt/costs/measured_cost_source.h"
#include "layoutopt/planning/planner.h"
#include "layoutopt/tuning/record_log.h"
#include "layoutopt/tuning/tuning_session.h"
#include "plan_fixtures.h"
#include "planning/golden_plan.h"
#include "tuning_fixtures.h"

using namespace layoutopt;
using namespace layoutopt::testing;

TEST_CASE("the measured plan of the tiny graph is the plan written before") {
  const graph::Graph g = tiny_graph();
  const ScratchFile records("records.jsonl");
  write_records(records.path(), tuning::extract_tasks(g));
  const std::vector<tuning::MeasureRecord> log = tuning::load_record_log(records.path()).records;
  const costs::TransformTable table = synthetic_table(g);
  const costs::ShapeLayouts offered = costs::offered_layouts(g, log, table, kTarget, 1);
  // Timed kernels, fixed times: 1, 2 or 3 us by position, so blocks differ in price.
  costs::FlexibleOpTable flexible = costs::time_flexible_ops(g, offered, fast_policy(), nullptr);
  int position = 0;
  for (auto& [kernel, ms] : flexible) ms = 0.001 * static_cast<double>(1 + position++ % 3);
  const costs::MeasuredCostSource source(g, log, {.transforms = table, .offered = offered, .flexible = flexible},
                                         fast_options(records.path()));
  check_golden_plan(planning::plan_layouts(g, source, dp_planner()).plan, "tiny.measured.plan.json");
}
