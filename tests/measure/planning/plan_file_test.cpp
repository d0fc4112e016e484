// The plan file's boundary: kernel choices read from and written back to the "payload" strings
// of today's files byte for byte, damaged payloads refused naming the node, and the plan's
// solver and cost kind read as enums from, and written back to, their command-line spellings.
// Then every way a plan can be wrong (a damaged or future-version document, an unreadable
// file, nodes or values the graph lacks, other wiring) refused with a PlanError that names it.

#include "layoutopt/planning/plan.h"

#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

#include "layoutopt/planning/planner.h"
#include "wrong_plans.h"

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

// ---- Every way a plan can be wrong is a PlanError naming the problem --------------------

namespace {

using layoutopt::testing::modelled_plan;
using layoutopt::testing::plan_document;
using layoutopt::testing::residual_graph;

/// The residual graph's plan document after `change`, read back.
template <typename Change>
planning::Plan read_changed(Change change) {
  nlohmann::json document = plan_document(modelled_plan(residual_graph()));
  change(document);
  return planning::plan_from_json(document);
}

void refused_document(const std::function<void(nlohmann::json&)>& change, const std::string& words) {
  CHECK_THROWS_WITH_AS((void)read_changed(change), doctest::Contains(words.c_str()), planning::PlanError);
}

void refused_plan(const planning::Plan& plan, const std::string& words) {
  CHECK_THROWS_WITH_AS(planning::validate_plan(plan, residual_graph()), doctest::Contains(words.c_str()), planning::PlanError);
}

/// A file under the system temp folder, removed with the object.
struct ScratchPath {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("layoutopt_plan_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
  ~ScratchPath() { std::filesystem::remove(path); }
  void write(const std::string& text) const { std::ofstream(path, std::ios::binary) << text; }
  static inline int counter = 0;
};

}  // namespace

TEST_CASE("the residual plan reads back and fits its graph (the cases below change one thing each)") {
  const graph::Graph graph = residual_graph();
  const planning::Plan plan = modelled_plan(graph);
  REQUIRE(plan.nodes.size() == 4);
  REQUIRE(plan.nodes[3].inputs.size() == 2);
  CHECK_NOTHROW(planning::validate_plan(plan, graph));
  CHECK_NOTHROW(planning::validate_plan(read_changed([](nlohmann::json&) {}), graph));
}

TEST_CASE("a plan from a newer layoutopt, or with a version that is not a number, is refused saying so") {
  refused_document([](auto& d) { d["version"] = 2; },
                   "plan version 2 was written by a newer layoutopt; this one reads version 1");
  refused_document([](auto& d) { d["version"] = 0; }, "plan version 0 is not supported");
  refused_document([](auto& d) { d["version"] = "1"; }, "\"version\" is \"1\", not a whole number");
  refused_document([](auto& d) { d["version"] = 1.5; }, "\"version\" is 1.5, not a whole number");
  refused_document([](auto& d) { d.erase("version"); }, "\"version\" is null");
  refused_document([](auto& d) { d["format"] = 7; }, "not a plan");
}

TEST_CASE("a damaged plan document is refused naming the field and where it is") {
  refused_document([](auto& d) { d.erase("model"); }, "damaged plan: the plan has no \"model\"");
  refused_document([](auto& d) { d["predicted_ms"] = "soon"; }, "\"predicted_ms\" of the plan is \"soon\", not a number");
  refused_document([](auto& d) { d["nodes"] = 4; }, "\"nodes\" is 4, not a list");
  refused_document([](auto& d) { d.erase("transforms"); }, "it has no \"transforms\"");
  refused_document([](auto& d) { d["nodes"][1] = "relu1"; }, "node 2 is \"relu1\", not an object");
  refused_document([](auto& d) { d["nodes"][1]["name"] = nullptr; }, "\"name\" of node 2 is null, not a string");
  refused_document([](auto& d) { d["nodes"][1]["ms"] = "fast"; }, "\"ms\" of node 2 ('relu1') is \"fast\", not a number");
  refused_document([](auto& d) { d["nodes"][3]["inputs"] = "NCHW"; },
                   "\"inputs\" of node 4 ('sum') is \"NCHW\", not a list of strings");
  refused_document([](auto& d) { d["nodes"][0].erase("op"); }, "node 1 ('conv1') has no \"op\"");
  // A plan holds operator kinds: a name no operator has is refused as the plan is read.
  refused_document([](auto& d) { d["nodes"][1]["op"] = "relu6"; },
                   "damaged plan: node 'relu1': op 'relu6' is no operator layoutopt knows");
  refused_document([](auto& d) { d["transforms"] = {{{"value", "relu1"}, {"from", "NCHW"}}}; },
                   "transform 1 has no \"to\"");
  refused_document([](auto& d) { d["costs"] = "guessed"; }, "unknown cost kind 'guessed'");
}

TEST_CASE("an unreadable plan file is refused naming the file") {
  const ScratchPath missing;
  CHECK_THROWS_WITH_AS((void)planning::load_plan(missing.path), doctest::Contains("' does not exist"),
                       planning::PlanError);
  const std::string whole = planning::to_json(modelled_plan(residual_graph())).dump(1);
  const ScratchPath truncated;
  truncated.write(whole.substr(0, whole.size() / 2));
  CHECK_THROWS_WITH_AS((void)planning::load_plan(truncated.path),
                       doctest::Contains("is not valid JSON (a damaged or truncated file?): parse error at line"),
                       planning::PlanError);
  const ScratchPath future;
  future.write(std::string(R"({"format": "layoutopt-plan", "version": 3})"));
  CHECK_THROWS_WITH_AS((void)planning::load_plan(future.path),
                       doctest::Contains(("plan '" + future.path.string() + "': plan version 3 was written by a newer").c_str()),
                       planning::PlanError);
}

TEST_CASE("a plan whose nodes are not the graph's is refused naming the node") {
  const planning::Plan plan = modelled_plan(residual_graph());
  planning::Plan op = plan;
  op.nodes[1].op = graph::OpKind::sigmoid;
  refused_plan(op, "node 'relu1' is relu in this graph but sigmoid in the plan");
  planning::Plan missing = plan;
  missing.nodes.pop_back();
  refused_plan(missing, "with 3 nodes; graph 'residual' has 4 (after inference preparation); the plan lacks node 'sum'");
  planning::Plan extra = plan;
  extra.nodes.push_back(plan.nodes[1]);
  extra.nodes.back().name = "relu9";
  refused_plan(extra, "with 5 nodes; graph 'residual' has 4 (after inference preparation); the plan names node 'relu9'");
  planning::Plan renamed = plan;
  renamed.nodes[2].name = "conv9";
  refused_plan(renamed, "names node 'conv9', which graph 'residual' does not have");
  planning::Plan twice = plan;
  twice.nodes[2] = plan.nodes[0];
  refused_plan(twice, "lists node 'conv1' twice and lacks node 'conv2'");
  planning::Plan reordered = plan;
  std::swap(reordered.nodes[0], reordered.nodes[1]);
  refused_plan(reordered, "node 1 of the plan is 'relu1', graph 'residual' has 'conv1' there");
}

TEST_CASE("a plan node with the wrong number of input layouts, or a layout that does not parse, is refused") {
  const planning::Plan plan = modelled_plan(residual_graph());
  planning::Plan one_input = plan;
  one_input.nodes[3].inputs.pop_back();
  refused_plan(one_input, "node 'sum' lists 1 input layouts; it reads 2 activation inputs");
  planning::Plan three_inputs = plan;
  three_inputs.nodes[1].inputs.push_back(layout::Layout::nchw());
  refused_plan(three_inputs, "node 'relu1' lists 2 input layouts; it reads 1");
  // A plan holds parsed layouts: the file's spelling is refused as it is read.
  refused_document([](auto& d) { d["nodes"][2]["output"] = "NCHW16"; }, "damaged plan: node 'conv2': ");
  refused_document([](auto& d) { d["nodes"][3]["inputs"][1] = ""; }, "damaged plan: node 'sum': ");
}

TEST_CASE("a plan whose transforms name values the graph lacks, weights, or no layout is refused") {
  const planning::Plan plan = modelled_plan(residual_graph());
  const auto with_transform = [&](const planning::PlanTransform& transform) {
    planning::Plan changed = plan;
    changed.transforms.push_back(transform);
    return changed;
  };
  const layout::Layout nchw = layout::Layout::nchw(), nchw8c = layout::Layout::nchwc(8);
  CHECK_NOTHROW(planning::validate_plan(with_transform({"relu1", nchw, nchw8c, 0.1}), residual_graph()));
  refused_plan(with_transform({"relu9", nchw, nchw8c, 0.1}),
               "has a transform of 'relu9' (NCHW -> NCHW8c), but graph 'residual' has no value 'relu9'");
  refused_plan(with_transform({"conv1.weight", nchw, nchw8c, 0.1}), "'conv1.weight' is a parameter, not an activation");
  const auto with_spelled = [](const std::string& from, const std::string& to) {
    return [=](nlohmann::json& d) { d["transforms"].push_back({{"value", "relu1"}, {"from", from}, {"to", to}, {"ms", 0.1}}); };
  };
  refused_document(with_spelled("NCHW", "NCHW7"), "damaged plan: transform of 'relu1' (NCHW -> NCHW7): ");
  refused_document(with_spelled("", "NCHW8c"), "damaged plan: transform of 'relu1'");
}

TEST_CASE("a plan made for a graph with other wiring or shapes is refused by its fingerprint") {
  planning::Plan plan = modelled_plan(residual_graph());
  plan.graph_fingerprint = "0123456789abcdef";
  refused_plan(plan, "other wiring or shapes (structure 0123456789abcdef, graph 'residual' has ");
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
