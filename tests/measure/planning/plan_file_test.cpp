// The plan file's boundary: kernel choices read from and written back to the "payload" strings
// of today's files byte for byte, damaged payloads refused naming the node, and the plan's
// solver and cost kind read as enums from, and written back to, their command-line spellings.

#include "layoutopt/planning/plan.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <variant>

#include "layoutopt/planning/planner.h"

using namespace layoutopt;

namespace {

// Nodes as plan files of 2026 hold them (from out/peers26*/ plans), one of each payload kind,
// plus a stand-in flexible kernel and a modelled node (empty payload).
constexpr const char* kPlanText = R"plan({
 "format": "layoutopt-plan",
 "version": 1,
 "model": "mobilenet-v3-large",
 "target": "llvm -mcpu=generic -num-cores=2",
 "costs": "measured",
 "solver": "dp",
 "predicted_ms": 0.04422425,
 "kernel_ms": 0.04422425,
 "transform_ms": 0.0,
 "nodes": [
  {
   "name": "/features/features.0/features.0.0/Conv",
   "op": "conv2d",
   "workload": "conv2d x[1,3,224,224] w[16,3,3,3] s2x2 p1,1,1,1 d1x1 g1",
   "label": "oc_inner=0 prefetch_weights=1 tile_ic=1 tile_oc=16 tile_oh=1 tile_ow=11 unroll_kw=0",
   "payload": "{\"config_index\":1388,\"family\":\"conv2d\",\"kind\":\"tuned\",\"knobs\":{\"oc_inner\":0,\"prefetch_weights\":1,\"tile_ic\":1,\"tile_oc\":16,\"tile_oh\":1,\"tile_ow\":11,\"unroll_kw\":0},\"task\":\"conv2d_NCHWc.x86\"}",
   "inputs": [
    "NCHW"
   ],
   "output": "NCHW16c",
   "ms": 0.03849325
  },
  {
   "name": "/features/features.4/block/block.2/avgpool/GlobalAveragePool",
   "op": "global_avg_pool2d",
   "workload": "",
   "label": "NCHW72c global_avg_pool2d",
   "payload": "{\"kernel\":{\"desc\":\"n1_c72_h28_w28_x72\",\"kernel\":\"global_avg_pool\",\"schedule\":{}},\"kind\":\"flexible\"}",
   "inputs": [
    "NCHW72c"
   ],
   "output": "NCHW72c",
   "ms": 0.005731
  },
  {
   "name": "/pad",
   "op": "pad",
   "workload": "",
   "label": "NCHW8c pad chunk16384 (stand-in: activation timed)",
   "payload": "{\"kernel\":{\"desc\":\"relu_n1_c16_h6_w6_x8\",\"kernel\":\"activation\",\"schedule\":{\"chunk\":16384},\"stand_in_for\":\"pad\"},\"kind\":\"flexible\"}",
   "inputs": [
    "NCHW8c"
   ],
   "output": "NCHW8c",
   "ms": 0.0
  },
  {
   "name": "/Flatten",
   "op": "flatten",
   "workload": "",
   "label": "canonical (not timed: 0 ms)",
   "payload": "{\"kind\":\"canonical\"}",
   "inputs": [
    "NCHW"
   ],
   "output": "NC",
   "ms": 0.0
  },
  {
   "name": "/relu",
   "op": "relu",
   "workload": "",
   "label": "NCHW",
   "payload": "",
   "inputs": [
    "NCHW"
   ],
   "output": "NCHW",
   "ms": 0.0
  }
 ],
 "transforms": []
}
)plan";

nlohmann::json with_payload(const std::string& payload) {
  nlohmann::json document = nlohmann::json::parse(kPlanText);
  document["nodes"][0]["payload"] = payload;
  return document;
}

}  // namespace

TEST_CASE("today's plan files read as typed kernel choices and are written back byte for byte") {
  const planning::Plan plan = planning::plan_from_json(nlohmann::json::parse(kPlanText));
  REQUIRE(plan.nodes.size() == 5);

  const auto* tuned = std::get_if<planning::TunedKernel>(&plan.nodes[0].kernel);
  REQUIRE(tuned != nullptr);
  CHECK(tuned->task == "conv2d_NCHWc.x86");
  CHECK(tuned->family == "conv2d");
  CHECK(tuned->config_index == 1388);
  CHECK(tuned->knobs.at("tile_ow") == 11);
  CHECK(tuned->knobs.size() == 7);

  const auto* pool = std::get_if<planning::FlexibleKernel>(&plan.nodes[1].kernel);
  REQUIRE(pool != nullptr);
  CHECK(pool->kernel == "global_avg_pool");
  CHECK(pool->desc == "n1_c72_h28_w28_x72");
  CHECK(pool->schedule.empty());
  CHECK(pool->stand_in_for.empty());

  const auto* pad = std::get_if<planning::FlexibleKernel>(&plan.nodes[2].kernel);
  REQUIRE(pad != nullptr);
  CHECK(pad->stand_in_for == "pad");
  CHECK(pad->schedule.at("chunk") == 16384);

  CHECK(std::holds_alternative<planning::CanonicalKernel>(plan.nodes[3].kernel));
  CHECK(std::holds_alternative<planning::UnspecifiedKernel>(plan.nodes[4].kernel));

  // save_plan writes to_json(plan).dump(1) and a newline.
  CHECK(planning::to_json(plan).dump(1) + "\n" == kPlanText);
}

TEST_CASE("a plan whose payload is not a kernel choice is refused naming the node") {
  const auto refused = [](const std::string& payload) {
    CHECK_THROWS_WITH_AS((void)planning::plan_from_json(with_payload(payload)),
                         doctest::Contains("node '/features/features.0/features.0.0/Conv': unreadable payload"),
                         planning::PlanError);
  };
  refused("{not json");
  refused("[1, 2]");
  refused(R"({"kind": "tuned", "knobs": {"tile_ic": "many"}})");  // no task, and a knob that is not a number
  refused(R"({"kind": "tuned", "task": "t", "family": "conv2d", "config_index": 3, "knobs": {"tile_ic": "many"}})");
  refused(R"({"kind": "flexible", "kernel": {"kernel": "pool2d"}})");
  CHECK_THROWS_WITH_AS((void)planning::plan_from_json(with_payload(R"({"kind": "winograd"})")),
                       doctest::Contains("unknown kind 'winograd' (expected tuned, flexible or canonical)"),
                       planning::PlanError);
}

TEST_CASE("solver and cost kind are spelled as on the command line; a bad spelling names the allowed ones") {
  for (const char* spelling : {"auto", "dp", "pbqp"}) CHECK(planning::to_string(planning::parse_solver(spelling)) == spelling);
  for (const char* spelling : {"measured", "modelled"})
    CHECK(planning::to_string(planning::parse_cost_kind(spelling)) == spelling);
  CHECK(planning::parse_solver("auto") == planning::SolverChoice::automatic);
  CHECK_THROWS_WITH_AS((void)planning::parse_solver("greedy"),
                       "unknown solver 'greedy' (expected one of: auto, dp, pbqp)", std::invalid_argument);
  CHECK_THROWS_WITH_AS((void)planning::parse_cost_kind("modeled"),
                       "unknown cost kind 'modeled' (expected one of: measured, modelled)", std::invalid_argument);

  const planning::PlannerOptions defaults;
  CHECK(defaults.solver == planning::SolverChoice::automatic);
  CHECK(defaults.costs == planning::CostKind::measured);
}

TEST_CASE("a plan's costs and solver read as the enums and are written back as they were spelled") {
  const planning::Plan plan = planning::plan_from_json(nlohmann::json::parse(kPlanText));
  CHECK(plan.costs == planning::CostKind::measured);
  CHECK(plan.solver == planning::SolverChoice::dp);
  nlohmann::json modelled = nlohmann::json::parse(kPlanText);
  modelled["costs"] = "modelled";
  modelled["solver"] = "pbqp";
  const planning::Plan pbqp = planning::plan_from_json(modelled);
  CHECK(pbqp.costs == planning::CostKind::modelled);
  CHECK(pbqp.solver == planning::SolverChoice::pbqp);
  CHECK(planning::to_json(pbqp)["costs"] == "modelled");
  CHECK(planning::to_json(pbqp)["solver"] == "pbqp");

  nlohmann::json unknown = nlohmann::json::parse(kPlanText);
  unknown["solver"] = "greedy";
  CHECK_THROWS_WITH_AS((void)planning::plan_from_json(unknown),
                       "damaged plan: unknown solver 'greedy' (expected one of: auto, dp, pbqp)", planning::PlanError);
}

TEST_CASE("damaged header fields and numbers are PlanErrors, not type errors or casts out of range") {
  // The fuzz target (fuzz/plan_fuzz.cpp) requires every rejection of a plan file to be a PlanError.
  const auto with = [](const auto& change) {
    nlohmann::json document = nlohmann::json::parse(kPlanText);
    change(document);
    return document;
  };
  CHECK_THROWS_AS((void)planning::plan_from_json(with([](nlohmann::json& d) { d["format"] = 7; })), planning::PlanError);
  CHECK_THROWS_AS((void)planning::plan_from_json(with([](nlohmann::json& d) { d["version"] = "1"; })), planning::PlanError);
  CHECK_THROWS_AS((void)planning::plan_from_json(with([](nlohmann::json& d) { d["predicted_ms"] = true; })),
                  planning::PlanError);
  CHECK_THROWS_AS((void)planning::plan_from_json(with([](nlohmann::json& d) { d["nodes"][0]["ms"] = "fast"; })),
                  planning::PlanError);
}
