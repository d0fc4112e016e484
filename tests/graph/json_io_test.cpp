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
  const json first = to_json(g);
  const Graph loaded = graph_from_json(first);
  CHECK(to_json(loaded) == first);
  REQUIRE(loaded.values().size() == g.values().size());
  for (const Value& original : g.values()) {
    const Value& copy = loaded.value(*loaded.find_value(original.name));
    CHECK(copy.type == original.type);
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
  for (json& value : bad_layout["values"])
    if (value["name"] == "conv1") value["layout"] = "NCHW16c";
  CHECK_THROWS_WITH_AS(graph_from_json(bad_layout), doctest::Contains("graphs hold no layouts"), GraphError);
  for (json& value : bad_layout["values"])
    if (value["name"] == "conv1") value["layout"] = "NCHW";  // what older files wrote: still read
  CHECK(graph_from_json(bad_layout).values().size() == graph_from_json(good).values().size());

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

namespace {

// One node of every operator added with the ONNX importer's operator set, each with
// attributes away from their defaults so that a dropped or swapped field shows.
Graph every_new_operator() {
  Graph g("new_ops");
  const ValueId x = g.add_input("x", {{1, 8, 4, 4}});
  const ValueId slope = parameter(g, "slope", {8, 1, 1}, ParameterRole::bias);
  const ValueId up_weight = parameter(g, "up.weight", {8, 3, 3, 3}, ParameterRole::conv_weight);
  const ValueId up_bias = parameter(g, "up.bias", {6}, ParameterRole::bias);
  const auto out = [&](const std::string& name, Op op, std::vector<ValueId> inputs) {
    g.add_output(g.add_node(name, std::move(op), std::move(inputs)));
  };
  out("tanh", Tanh{}, {x});
  out("hard_sigmoid", HardSigmoid{.alpha = 1.0f / 6.0f, .beta = 0.25f}, {x});
  out("hard_swish", HardSwish{}, {x});
  out("leaky_relu", LeakyRelu{.alpha = 0.2f}, {x});
  out("prelu", PRelu{}, {x, slope});
  out("sub", Sub{}, {x, slope});
  out("div", Div{}, {slope, x});
  out("max", Max{}, {x, x});
  out("min", Min{}, {x, slope});
  out("mean", ReduceMean{.axes = {1, 3}, .keep_dims = false}, {x});
  out("up",
      ConvTranspose2d{.kernel = {3, 3}, .stride = {2, 3}, .dilation = {1, 2}, .pads = {1, 0, 2, 1},
                      .output_padding = {1, 2}, .groups = 2, .bias = true},
      {x, up_weight, up_bias});
  out("lrn", Lrn{.size = 3, .alpha = 2e-4f, .beta = 0.5f, .bias = 2.0f}, {x});
  out("resize",
      Resize{.mode = ResizeMode::linear, .coordinates = ResizeCoordinates::align_corners,
             .rounding = NearestRounding::round_prefer_ceil, .size = {10, 7}, .scale_h = 2.5, .scale_w = 1.75},
      {x});
  out("resize_nearest",
      Resize{.coordinates = ResizeCoordinates::pytorch_half_pixel, .rounding = NearestRounding::ceil, .size = {3, 1},
             .scale_h = 0.75, .scale_w = 0.1},
      {x});
  out("slice", Slice{.axis = 1, .start = 1, .end = 7, .step = 2}, {x});
  out("shuffle", ChannelShuffle{.groups = 4}, {x});
  out("silu", Silu{}, {x});
  return g;
}

}  // namespace

TEST_CASE("every new operator round-trips through JSON with its attributes") {
  const Graph g = every_new_operator();
  const json document = to_json(g);
  const Graph loaded = graph_from_json(document);
  CHECK(to_json(loaded) == document);
  REQUIRE(loaded.nodes().size() == g.nodes().size());
  for (size_t n = 0; n < g.nodes().size(); ++n) {
    CAPTURE(g.nodes()[n].name);
    CHECK(loaded.nodes()[n].op == g.nodes()[n].op);
    CHECK(loaded.value(loaded.nodes()[n].output).type == g.value(g.nodes()[n].output).type);
  }
  // Enums are written as their stable names.
  const json& resize = document["nodes"][12];
  CHECK(resize["op"] == "resize");
  CHECK(resize["attrs"]["mode"] == "linear");
  CHECK(resize["attrs"]["coordinates"] == "align_corners");
  CHECK(resize["attrs"]["rounding"] == "round_prefer_ceil");
}

TEST_CASE("an unknown resize mode is rejected with the accepted names") {
  json document = to_json(every_new_operator());
  document["nodes"][12]["attrs"]["mode"] = "cubic";
  CHECK_THROWS_WITH_AS(graph_from_json(document), "node 'resize': attribute 'mode' must be nearest or linear",
                       GraphError);
  document["nodes"][12]["attrs"]["mode"] = "linear";
  document["nodes"][12]["attrs"]["coordinates"] = "tf_crop_and_resize";
  CHECK_THROWS_WITH_AS(graph_from_json(document),
                       "node 'resize': attribute 'coordinates' must be half_pixel, pytorch_half_pixel, "
                       "align_corners or asymmetric",
                       GraphError);
}

TEST_CASE("DOT labels show a transposed convolution's window and a shuffle's groups") {
  const std::string dot = to_dot(every_new_operator(), {});
  CHECK(dot.find("up\\nconv_transpose2d 3x3/2 g2\\n[1, 6, 7, 15]") != std::string::npos);
  CHECK(dot.find("shuffle\\nchannel_shuffle g4\\n[1, 8, 4, 4]") != std::string::npos);
}

TEST_CASE("the hard activations of a fused epilogue round-trip by name") {
  Graph g("hard");
  g.add_output(conv(g, "conv", g.add_input("x", {{1, 4, 6, 6}}), 4, 3, 1, 1));
  std::get<Conv2d>(g.node(0).op).epilogue.activation = Activation::hard_swish;
  std::get<Conv2d>(g.node(0).op).epilogue.post_activation = Activation::hard_sigmoid;
  json document = to_json(g);
  CHECK(document["nodes"][0]["attrs"]["epilogue"]["activation"] == "hard_swish");
  CHECK(std::get<Conv2d>(graph_from_json(document).node(0).op) == std::get<Conv2d>(g.node(0).op));
  document["nodes"][0]["attrs"]["epilogue"]["activation"] = "swish";
  CHECK_THROWS_WITH_AS(graph_from_json(document),
                       "node 'conv': attribute 'activation' must be none, relu, relu6, hard_swish, hard_sigmoid, "
                       "silu, sigmoid, gelu or gelu_tanh",
                       GraphError);
}

TEST_CASE("silu round-trips as an operator and as a conv's fused activation") {
  Graph g("silu");
  const ValueId c = conv(g, "conv", g.add_input("x", {{1, 4, 6, 6}}), 4, 3, 1, 1);
  g.add_output(g.add_node("act", Silu{}, {c}));
  std::get<Conv2d>(g.node(0).op).epilogue.activation = Activation::silu;
  const json document = to_json(g);
  CHECK(document["nodes"][0]["attrs"]["epilogue"]["activation"] == "silu");
  CHECK(document["nodes"][1]["op"] == "silu");
  const Graph back = graph_from_json(document);
  CHECK(std::get<Conv2d>(back.node(0).op) == std::get<Conv2d>(g.node(0).op));
  CHECK(std::holds_alternative<Silu>(back.node(1).op));
  CHECK(back.value(back.node(1).output).type == g.value(g.node(1).output).type);
}

TEST_CASE("a conv's input scale round-trips; documents without the flag load unscaled") {
  Graph g = squeeze_excite_block();
  prepare_for_inference(g);
  const NodeId project = *g.find_node("project");
  REQUIRE(std::get<Conv2d>(g.node(project).op).input_scale);
  json document = to_json(g);
  CHECK(document["nodes"][project]["attrs"]["input_scale"] == true);
  const Graph back = graph_from_json(document);
  CHECK(to_json(back) == document);
  CHECK(std::get<Conv2d>(back.node(project).op) == std::get<Conv2d>(g.node(project).op));
  CHECK(back.node(project).inputs.size() == g.node(project).inputs.size());
  CHECK(std::get<Conv2d>(back.node(*back.find_node("excite")).op).epilogue.activation == Activation::sigmoid);

  // An unscaled conv writes no flag, and a document without it reads as unscaled.
  Graph plain("plain");
  plain.add_output(conv(plain, "conv", plain.add_input("x", {{1, 4, 6, 6}}), 4, 1, 1, 0));
  const json plain_document = to_json(plain);
  CHECK_FALSE(plain_document["nodes"][0]["attrs"].contains("input_scale"));
  CHECK_FALSE(std::get<Conv2d>(graph_from_json(plain_document).node(0).op).input_scale);
}

TEST_CASE("DOT marks a conv that scales its input") {
  Graph g = squeeze_excite_block();
  prepare_for_inference(g);
  CHECK(to_dot(g).find("(x*scale)") != std::string::npos);
}

TEST_CASE("damaged numbers and header fields are GraphErrors, not type errors, overflow or casts out of range") {
  // The fuzz target (fuzz/graph_json_fuzz.cpp) requires every rejection to be a GraphError.
  const json good = to_json(residual_block());
  const auto with = [&](const auto& change) {
    json document = good;
    change(document);
    return document;
  };
  const auto input_shape = [](json& document, json shape) {
    for (json& value : document["values"])
      if (value["kind"] == "input") value["shape"] = std::move(shape);
  };
  CHECK_THROWS_AS(graph_from_json(with([](json& d) { d["format"] = 7; })), GraphError);
  CHECK_THROWS_AS(graph_from_json(with([](json& d) { d["version"] = "1"; })), GraphError);
  CHECK_THROWS_AS(graph_from_json(with([](json& d) { d["version"] = 1e300; })), GraphError);
  CHECK_THROWS_AS(graph_from_json(with([&](json& d) { input_shape(d, {1, 3, 1.5, 8}); })), GraphError);
  CHECK_THROWS_AS(graph_from_json(with([&](json& d) { input_shape(d, {1, 3, 1e300, 8}); })), GraphError);
  CHECK_THROWS_WITH_AS(graph_from_json(with([&](json& d) { input_shape(d, {1, 4294967296, 4294967296, 8}); })),
                       doctest::Contains("more elements than 64 bits can count"), GraphError);
  CHECK_THROWS_WITH_AS(graph_from_json(with([&](json& d) { input_shape(d, {1, -3, 8, 8}); })),
                       doctest::Contains("negative extent"), GraphError);
  CHECK_THROWS_AS(graph_from_json(with([](json& d) { d["nodes"][0]["attrs"]["groups"] = 1e300; })), GraphError);
}
