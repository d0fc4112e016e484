#pragma once
// The fixture of the wrong-plan tests: a small prepared graph, the plan the analytic model
// makes for it, and that plan as the JSON document a file holds, to damage field by field.

#include <nlohmann/json.hpp>

#include "layoutopt/graph/graph.h"
#include "layoutopt/planning/analytic_cost_model.h"
#include "layoutopt/planning/plan.h"
#include "layoutopt/planning/planner.h"

namespace layoutopt::testing {

/// x[1,16,8,8] -> conv1 3x3 -> relu1 -> conv2 1x1 -> sum(relu1, conv2): a residual edge, so
/// a node reads two activations.
inline graph::Graph residual_graph() {
  graph::Graph g("residual");
  const auto seeded = [](int64_t count) { return graph::WeightData::seeded({1}, count); };
  const auto x = g.add_input("x", {{1, 16, 8, 8}});
  const auto w1 = g.add_parameter("conv1.weight", {16, 16, 3, 3}, seeded(16 * 16 * 9));
  const auto c1 = g.add_node("conv1", graph::Conv2d{.kernel = {3, 3}, .pads = {1, 1, 1, 1}}, {x, w1});
  const auto r1 = g.add_node("relu1", graph::Relu{}, {c1});
  const auto w2 = g.add_parameter("conv2.weight", {16, 16, 1, 1}, seeded(16 * 16));
  const auto c2 = g.add_node("conv2", graph::Conv2d{}, {r1, w2});
  g.add_output(g.add_node("sum", graph::Add{}, {r1, c2}));
  return g;
}

inline planning::Plan modelled_plan(const graph::Graph& graph) {
  const planning::AnalyticCostModel model;
  const planning::PlannerOptions options{
      .solver = planning::SolverChoice::dp, .solve = {}, .target = "llvm -mcpu=test", .costs = planning::CostKind::modelled};
  return planning::plan_layouts(graph, model, options).plan;
}

/// The plan as a file holds it (nlohmann::json, as plan_from_json reads it).
inline nlohmann::json plan_document(const planning::Plan& plan) {
  return nlohmann::json::parse(planning::to_json(plan).dump());
}

}  // namespace layoutopt::testing
