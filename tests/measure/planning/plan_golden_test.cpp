// Plans of zoo networks under the analytic model, against plan files written before the plan
// held typed layouts: the same bytes read and written again, and the same plan planned again.

#include <doctest/doctest.h>

#include "golden_plan.h"
#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/graph/zoo/zoo.h"
#include "layoutopt/planning/analytic_cost_model.h"
#include "layoutopt/planning/planner.h"

using namespace layoutopt;

TEST_CASE("analytic plans of zoo networks are the plans written before") {
  const planning::AnalyticCostModel model;
  for (const char* name : {"resnet-18", "mobilenet-v2", "squeezenet-1.0"}) {
    CAPTURE(name);
    graph::Graph g = graph::zoo::build(name);
    graph::prepare_for_inference(g);
    const planning::PlannerOptions options{.solver = planning::SolverChoice::dp,
                                           .solve = {},
                                           .target = "llvm -mcpu=test-cpu -num-cores=1",
                                           .costs = planning::CostKind::modelled};
    testing::check_golden_plan(planning::plan_layouts(g, model, options).plan, std::string(name) + ".analytic.plan.json");
  }
}
