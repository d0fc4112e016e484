#include "layoutopt/graph/json_io.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "graph_fixtures.h"
#include "layoutopt/graph/dot_export.h"
#include "layoutopt/graph/error.h"
#include "layoutopt/graph/passes/pipeline.h"

using namespace layoutopt::graph;
using namespace layoutopt::graph::testing;
using nlohmann::json;

TEST_CASE("JSON round-trips seeded and explicit weights exactly") {
  Graph g = residual_block();
  prepare_for_inference(g);  // folding creates explicit weights
  g.value(*g.find_value("conv1")).layout = layoutopt::layout::Layout::nchwc(4);
  const json first = to_json(g);
  const Graph loaded = graph_from_json(first);
  CHECK(to_json(loaded) == first);
  REQUIRE(loaded.values().size() == g.values().size());
  for (const Value& original : g.values()) {
    const Value& copy = loaded.value(*loaded.find_value(original.name));
    CHECK(copy.type == original.type);
    CHECK(copy.layout == original.layout);
    CHECK(copy.weights.has_value() == original.weights.has_value());
    if (original.weights) CHECK(*copy.weights == *original.weights);
  }
  CHECK(std::get<Conv2d>(loaded.node(*loaded.find_node("conv2")).op) == std::get<Conv2d>(g.node(1).op));
}

TEST_CASE("a batch norm's fused activation round-trips, and older documents default to none") {
  Graph g("bn");
  g.add_output(batch_norm(g, "bn", g.add_input("x", {{1, 4, 6, 6}})));
  std::get<BatchNorm>(g.node(0).op).activation = Activation::relu6;
  json document = to_json(g);
  CHECK(std::get<BatchNorm>(graph_from_json(document).node(0).op) == BatchNorm{.activation = Activation::relu6});
  for (json& node : document["nodes"]) node["attrs"].erase("activation");
  CHECK(std::get<BatchNorm>(graph_from_json(document).node(0).op).activation == Activation::none);
}

TEST_CASE("files round-trip through save and load") {
  const Graph g = residual_block();
  const auto path = std::filesystem::temp_directory_path() / "layoutopt_json_io_test.json";
  save_json(g, path);
  CHECK(to_json(load_json(path)) == to_json(g));
  std::filesystem::remove(path);
}

TEST_CASE("malformed documents are rejected with the problem named") {
  const json good = to_json(residual_block());
  CHECK_THROWS_WITH_AS(graph_from_json(json::array()), doctest::Contains("not a layoutopt graph document"), GraphError);

  json wrong_shape = good;
  for (json& value : wrong_shape["values"])
    if (value["name"] == "conv1.weight") value["shape"] = {8, 8, 3, 5};
  CHECK_THROWS(graph_from_json(wrong_shape));  // the seeded weights no longer fit or the conv rejects them

  json unknown_input = good;
  unknown_input["nodes"][0]["inputs"][0] = "ghost";
  CHECK_THROWS_WITH_AS(graph_from_json(unknown_input), "node 'conv1': refers to unknown value 'ghost'", GraphError);

  json unknown_op = good;
  unknown_op["nodes"][1]["op"] = "lstm";
  CHECK_THROWS_WITH_AS(graph_from_json(unknown_op), doctest::Contains("unknown operator 'lstm'"), GraphError);

  json missing_attr = good;
  missing_attr["nodes"][0]["attrs"].erase("stride");
  CHECK_THROWS_WITH_AS(graph_from_json(missing_attr), "node 'conv1': missing field 'stride'", GraphError);

  json bad_layout = good;
  for (json& value : bad_layout["values"])
    if (value["name"] == "conv1") value["layout"] = "NCHW3x";
  CHECK_THROWS_WITH_AS(graph_from_json(bad_layout), doctest::Contains("value 'conv1': invalid layout"), GraphError);

  json bad_weights = to_json([] {
    Graph g = residual_block();
    prepare_for_inference(g);
    return g;
  }());
  for (json& value : bad_weights["values"])
    if (value.contains("weights") && value["weights"].contains("f32_base64")) {
      value["weights"]["f32_base64"] = "AAAA";
      break;
    }
  CHECK_THROWS_WITH_AS(graph_from_json(bad_weights), doctest::Contains("the shape needs"), GraphError);

  const auto path = std::filesystem::temp_directory_path() / "layoutopt_bad.json";
  {
    std::ofstream out(path);
    out << "{\"format\": \"layoutopt-graph\", ";  // truncated
  }
  CHECK_THROWS_WITH_AS(load_json(path), doctest::Contains("is not valid JSON"), GraphError);
  std::filesystem::remove(path);
}

TEST_CASE("DOT export draws every node and data edge") {
  const Graph g = residual_block();
  const std::string dot = to_dot(g, {.node_note = [](NodeId n) { return n == 0 ? std::string("NCHW8c") : ""; },
                                     .node_color = [](NodeId) { return std::string(); }});
  CHECK(dot.starts_with("digraph \"residual_block\""));
  CHECK(dot.find("conv1\\nconv2d 3x3\\n[1, 8, 10, 10]\\nNCHW8c") != std::string::npos);
  CHECK(dot.find("v0 -> n0;") != std::string::npos);  // input feeds conv1
  CHECK(dot.find("v0 -> n5;") != std::string::npos);  // and the residual add
  CHECK(dot.find("conv1.weight") == std::string::npos);  // parameters are not drawn
}
