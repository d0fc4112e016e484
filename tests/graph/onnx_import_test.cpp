#include "layoutopt/graph/onnx/onnx_import.h"

#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "layoutopt/graph/error.h"
#include "layoutopt/graph/fingerprint.h"
#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/graph/workloads.h"
#include "layoutopt/graph/validate.h"
#include "onnx_test_models.h"

using namespace layoutopt::graph;
using namespace onnx_test;

namespace {

const std::filesystem::path kData = std::filesystem::path(LAYOUTOPT_SOURCE_DIR) / "data" / "onnx";

/// Figures torch computed when scripts/export_torchvision.py wrote the files.
const nlohmann::json& expected_models() {
  static const nlohmann::json models = [] {
    std::ifstream file(kData / "expected.json");
    REQUIRE(file.good());
    return nlohmann::json::parse(file).at("models");
  }();
  return models;
}

std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

/// x[1,3,8,8] -> conv1 (3x3, 4 filters) -> y, with `weight_dims` for the weight.
ModelBuilder conv_model(const std::vector<int64_t>& weight_dims) {
  ModelBuilder model;
  model.input("x", {1, 3, 8, 8}).weight("w", weight_dims).output("y");
  model.node("Conv", "conv1", {"x", "w"}, "y");
  return model;
}

}  // namespace

TEST_CASE("torchvision exports with the exporter's defaults import with the file's parameters") {
  for (const auto& [key, expected] : expected_models().items()) {
    if (expected.contains("weights")) continue;  // tiny-convnet, exported with weights
    const std::string name = key;  // a copy: clang 14 cannot capture a structured binding
    CAPTURE(name);
    const import::ImportResult result = import::import_onnx(kData / expected.at("file").get<std::string>());
    const Graph& g = result.graph;
    validate(g);
    REQUIRE(g.inputs().size() == 1);
    CHECK(g.value(g.inputs()[0]).type.shape == expected.at("input_shape").get<Shape>());
    REQUIRE(g.outputs().size() == 1);
    CHECK(g.value(g.outputs()[0]).type.shape == expected.at("output_shape").get<Shape>());
    CHECK(count_nodes(g, "batch_norm") == expected.at("batch_norm_nodes").get<int>());
    CHECK(result.opset == 13);
    CHECK(result.producer.starts_with("pytorch"));
    // Every parameter was generated: the file holds no weights at all.
    int parameters = 0;
    int64_t values = 0;
    for (const Value& value : g.values()) {
      if (value.kind != ValueKind::parameter) continue;
      ++parameters;
      values += element_count(value.type.shape);
    }
    CHECK(result.generated_parameters == parameters);
    CHECK(result.generated_values == values);
    // One IR parameter per distinct tensor: deduplicated initializers stay shared.
    CHECK(result.generated_values == expected.at("distinct_weight_values").get<int64_t>());
    CHECK(result.generated_parameters > 0);
  }
}

TEST_CASE("generated weights follow the role their consumer implies and the seed") {
  const auto path = kData / "resnet-18.onnx";
  const Graph a = import::import_onnx(path, {.seed = 7}).graph;
  const Graph b = import::import_onnx(path, {.seed = 8}).graph;
  // DenseNet keeps the batch norms that follow a concat (no conv to fold them into).
  const Graph dense = import::import_onnx(kData / "densenet-201.onnx").graph;
  const auto bn = std::find_if(dense.nodes().begin(), dense.nodes().end(),
                               [](const Node& node) { return std::holds_alternative<BatchNorm>(node.op); });
  REQUIRE(bn != dense.nodes().end());
  const WeightData& variance = *dense.value(bn->inputs[4]).weights;
  REQUIRE(variance.is_seeded());
  for (float v : variance.values()) CHECK(v > 0.0f);  // bn_variance role: strictly positive
  CHECK(dense.value(bn->inputs[1]).weights->random_init().center == 1.0f);  // bn_scale role
  const auto first_conv_weight = [](const Graph& g) { return *g.value(g.nodes().front().inputs[1]).weights; };
  REQUIRE(std::holds_alternative<Conv2d>(a.nodes().front().op));
  CHECK(first_conv_weight(a) != first_conv_weight(b));
  CHECK(first_conv_weight(a) == first_conv_weight(import::import_onnx(path, {.seed = 7}).graph));
}

TEST_CASE("a file exported with weights reads them from initializers") {
  const nlohmann::json& expected = expected_models().at("tiny-convnet");
  const import::ImportResult result = import::import_onnx(kData / "tiny-convnet.onnx");
  const Graph& g = result.graph;
  validate(g);
  CHECK(result.generated_parameters == 0);
  CHECK(parameter_count(g) == expected.at("distinct_weight_values").get<int64_t>());
  CHECK(g.value(g.outputs()[0]).type.shape == expected.at("output_shape").get<Shape>());
  // relu6 arrives as Clip with Cast constants; MatMul + Add of head_bias becomes one dense.
  CHECK(count_nodes(g, "clip") == 1);
  for (const Node& node : g.nodes())
    if (const auto* clip = std::get_if<Clip>(&node.op)) CHECK(*clip == Clip{0.0f, 6.0f});
  CHECK(count_nodes(g, "dense") == 2);
  CHECK(count_nodes(g, "add") == 0);
  for (const auto& [key, weight] : expected.at("weights").items()) {
    const std::string name = key;  // a copy: clang 14 cannot capture a structured binding
    CAPTURE(name);
    const auto id = g.find_value(name);
    REQUIRE(id.has_value());
    const Shape torch_shape = weight.at("shape").get<Shape>();
    const std::vector<float> torch_values = weight.at("values").get<std::vector<float>>();
    const auto ours = g.value(*id).weights->values();
    REQUIRE(ours.size() == torch_values.size());
    // MatMul weights are [in, out] in torch and the file, [out, in] in the IR.
    const bool transposed = g.value(*id).type.shape != torch_shape;
    if (transposed) CHECK(g.value(*id).type.shape == Shape{torch_shape[1], torch_shape[0]});
    for (size_t i = 0; i < ours.size(); ++i) {
      const size_t row = i / static_cast<size_t>(g.value(*id).type.shape.back());
      const size_t col = i % static_cast<size_t>(g.value(*id).type.shape.back());
      const size_t torch_index = transposed ? col * static_cast<size_t>(torch_shape[1]) + row : i;
      CHECK(ours[i] == torch_values[torch_index]);
    }
  }
}

TEST_CASE("files that are not ONNX models are rejected with a clear error") {
  const std::string real = read_bytes(kData / "resnet-18.onnx");
  std::mt19937 random(42);
  std::string noise(4096, '\0');
  for (char& byte : noise) byte = static_cast<char>(random());
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"truncated", real.substr(0, real.size() / 2)},
      {"random", noise},
      {"text", "This is a README, not a network.\nIt has two lines.\n"},
      {"empty", ""},
  };
  for (const auto& entry : cases) {
    const std::string& label = entry.first;
    const std::string& bytes = entry.second;
    CAPTURE(label);
    const std::string message = error_of([&] { (void)import::import_onnx_bytes(bytes, "f.onnx"); });
    CHECK(message.starts_with("'f.onnx' is not an ONNX model ("));
  }
  CHECK(error_of([&] { (void)import::import_onnx_bytes(real.substr(0, real.size() / 2), "f.onnx"); }) ==
        "'f.onnx' is not an ONNX model (protobuf parse failed)");
  CHECK(error_of([] { (void)import::import_onnx(kData / "missing.onnx"); }).starts_with("cannot open"));
}

TEST_CASE("every unsupported operator is listed at once with its nodes") {
  ModelBuilder model;
  model.input("x", {1, 3, 8, 8}).output("y");
  model.node("RoiAlign", "roi1", {"x"}, "a");
  model.node("Relu", "ok", {"a"}, "b");
  model.node("LSTM", "lstm_1", {"b"}, "c");
  model.node("RoiAlign", "roi2", {"c"}, "y");
  CHECK(error_of([&] { (void)model.import(); }) ==
        "'test.onnx': unsupported operators: LSTM (nodes: lstm_1), RoiAlign (nodes: roi1, roi2)");
}

TEST_CASE("import errors name the node and the problem") {
  SUBCASE("conv weight with the wrong input channels") {
    const std::string message = error_of([] { (void)conv_model({4, 2, 3, 3}).import(); });
    CHECK(message.find("node 'conv1'") != std::string::npos);
    CHECK(message.find("[4, 2, 3, 3]") != std::string::npos);
  }
  SUBCASE("opset older than 7") {
    ModelBuilder model(6);
    model.input("x", {1, 4}).output("y").node("Relu", "r", {"x"}, "y");
    CHECK(error_of([&] { (void)model.import(); }).find("opset 6 is not supported") != std::string::npos);
  }
  SUBCASE("empty graph") {
    ModelBuilder model;
    model.input("x", {1, 4}).output("x");
    CHECK(error_of([&] { (void)model.import(); }) == "'test.onnx': the graph is empty (no nodes)");
  }
  SUBCASE("Gemm with transA=1") {
    ModelBuilder model;
    model.input("x", {4, 1}).weight("w", {3, 4}).output("y");
    set_int(model.node("Gemm", "fc", {"x", "w"}, "y"), "transA", 1);
    CHECK(error_of([&] { (void)model.import(); }) == "'test.onnx': node 'fc' (Gemm): transA=1 is not supported");
  }
  SUBCASE("1-D convolution") {
    ModelBuilder model;
    model.input("x", {1, 3, 8}).weight("w", {4, 3, 3}).output("y").node("Conv", "conv1d", {"x", "w"}, "y");
    CHECK(error_of([&] { (void)model.import(); }).find("node 'conv1d' (Conv): input has shape [1, 3, 8]") !=
          std::string::npos);
  }
  SUBCASE("Reshape whose shape is computed, not constant") {
    ModelBuilder model;
    model.input("x", {1, 4}).input("s", {2}).output("y").node("Reshape", "r", {"x", "s"}, "y");
    CHECK(error_of([&] { (void)model.import(); }).find("node 'r' (Reshape): input 1 's' must be a constant") !=
          std::string::npos);
  }
  SUBCASE("symbolic spatial dimension") {
    ModelBuilder model;
    model.input("x", {1, 3, -1, 8}).output("y").node("Relu", "r", {"x"}, "y");
    CHECK(error_of([&] { (void)model.import(); }).find("graph input 'x': dimension 2 is 'batch'") != std::string::npos);
  }
}

TEST_CASE("a symbolic batch dimension takes the batch option") {
  ModelBuilder model;
  model.input("x", {-1, 3, 8, 8}).weight("w", {4, 3, 3, 3}).output("y");
  model.node("Conv", "conv1", {"x", "w"}, "y");
  CHECK(model.import().graph.value(0).type.shape == Shape{1, 3, 8, 8});
  const Graph g = model.import({.batch = 4}).graph;
  CHECK(g.value(g.outputs()[0]).type.shape == Shape{4, 4, 6, 6});
}

TEST_CASE("an input with a zero batch dimension is rejected, not run as batch 1") {
  // A fixed extent of 0 is an empty tensor, unlike a symbolic one: the batch option must not
  // replace it, and the error names the input and the dimension.
  ModelBuilder model;
  model.input("x", {0, 3, 8, 8}).weight("w", {4, 3, 3, 3}).output("y");
  model.node("Conv", "conv1", {"x", "w"}, "y");
  for (const int64_t batch : {1, 4})
    CHECK(error_of([&] { (void)model.import({.batch = batch}); }) ==
          "'test.onnx': graph input 'x': dimension 0 is 0; only tensors with positive extents can be planned");
}

TEST_CASE("auto_pad resolves to explicit pads for the input size") {
  // 7 wide, stride 2, kernel 4: 4 outputs need 2*3 + 4 - 7 = 3 pads; UPPER puts the odd one last.
  for (const auto& [mode, expected] : {std::pair{"SAME_UPPER", Pads2d{1, 1, 2, 2}}, std::pair{"SAME_LOWER", Pads2d{2, 2, 1, 1}},
                                       std::pair{"VALID", Pads2d{}}}) {
    const std::string mode_name = mode;  // a copy: clang 14 cannot capture a structured binding
    CAPTURE(mode_name);
    ModelBuilder model;
    model.input("x", {1, 3, 7, 7}).weight("w", {2, 3, 4, 4}).output("y");
    auto& conv = model.node("Conv", "c", {"x", "w"}, "y");
    set_ints(conv, "strides", {2, 2});
    set_string(conv, "auto_pad", mode);
    const Graph g = model.import().graph;
    CHECK(std::get<Conv2d>(node_named(g, "c").op).pads == expected);
  }
}

TEST_CASE("pooling, padding and reshape attributes carry over") {
  ModelBuilder model;
  model.input("x", {1, 2, 6, 6}).ints("pads", {0, 0, 1, 1, 0, 0, 1, 1}).ints("shape", {0, -1}).output("y");
  model.node("Pad", "pad", {"x", "pads"}, "p");
  auto& pool = model.node("AveragePool", "pool", {"p"}, "q");
  set_ints(pool, "kernel_shape", {3, 3});
  set_ints(pool, "strides", {2, 2});
  set_int(pool, "ceil_mode", 1);
  set_int(pool, "count_include_pad", 1);
  model.node("Reshape", "flat", {"q", "shape"}, "y");
  const Graph g = model.import().graph;
  CHECK(std::get<Pad>(node_named(g, "pad").op).pads == Pads2d{1, 1, 1, 1});
  const auto& p = std::get<Pool2d>(node_named(g, "pool").op);
  CHECK(p.kind == PoolKind::avg);
  CHECK(p.kernel == Hw{3, 3});
  CHECK(p.ceil_mode);
  CHECK(p.count_include_pad);
  CHECK(g.value(g.outputs()[0]).type.shape == Shape{1, 2 * 4 * 4});  // ceil((8-3)/2)+1 = 4
}

TEST_CASE("MatMul becomes dense with [out, in] weights, with or without a bias Add") {
  ModelBuilder model;
  model.input("x", {2, 3}).weight("w", {3, 4}).weight("b", {4}).weight("w2", {4, 5}).output("y");
  model.node("MatMul", "mm", {"x", "w"}, "m");
  model.node("Add", "bias", {"m", "b"}, "h");
  model.node("MatMul", "mm2", {"h", "w2"}, "y");
  const Graph g = model.import().graph;
  CHECK(std::get<Dense>(node_named(g, "mm").op).epilogue.bias);
  CHECK_FALSE(std::get<Dense>(node_named(g, "mm2").op).epilogue.bias);
  CHECK(count_nodes(g, "add") == 0);
  const Value& w = g.value(*g.find_value("w"));
  CHECK(w.type.shape == Shape{4, 3});
  CHECK(w.weights->values()[1] == doctest::Approx(0.04f));  // w'[0][1] = w[1][0] = 0.01 * 4
  CHECK(g.value(g.outputs()[0]).type.shape == Shape{2, 5});
}

TEST_CASE("element-wise, normalization and head operators map one to one") {
  ModelBuilder model;
  model.input("x", {1, 2, 4, 4}).output("y").constant("six", 6.0f).constant("ratio", 0.25f);
  model.weight("scale", {4}).weight("shift", {4}).weight("mean", {4}).weight("var", {4}, {1, 2, 3, 4});
  model.weight("fc.w", {64, 3}).weight("fc.b", {3});
  model.node("Sigmoid", "sig", {"x"}, "s");
  model.node("Mul", "gate", {"x", "s"}, "m");
  set_int(model.node("Concat", "cat", {"m", "x"}, "c"), "axis", 1);
  set_float(model.node("BatchNormalization", "bn", {"c", "scale", "shift", "mean", "var"}, "b"), "epsilon", 1e-3f);
  model.node("Clip", "clip", {"b", "", "six"}, "k");
  model.node("Dropout", "drop", {"k", "ratio"}, "d");
  model.node("Identity", "same", {"d"}, "i");
  model.node("Flatten", "flat", {"i"}, "f");
  model.node("Gemm", "fc", {"f", "fc.w", "fc.b"}, "g");  // transB=0: weight stored [in, out]
  model.node("Softmax", "prob", {"g"}, "y");
  const Graph g = model.import().graph;
  validate(g);
  CHECK(std::holds_alternative<Sigmoid>(node_named(g, "sig").op));
  CHECK(std::holds_alternative<Mul>(node_named(g, "gate").op));
  CHECK(std::get<Concat>(node_named(g, "cat").op).axis == 1);
  CHECK(std::get<BatchNorm>(node_named(g, "bn").op).epsilon == 1e-3f);
  const auto& clip = std::get<Clip>(node_named(g, "clip").op);
  CHECK(std::isinf(clip.min));
  CHECK(clip.max == 6.0f);
  CHECK(std::get<Dropout>(node_named(g, "drop").op).ratio == 0.25f);
  CHECK_FALSE(g.find_node("same").has_value());  // its reader reads its input instead
  CHECK(g.value(*g.find_value("fc.w")).type.shape == Shape{3, 64});
  CHECK(std::get<Dense>(node_named(g, "fc").op).epilogue.bias);
  CHECK(std::get<Softmax>(node_named(g, "prob").op).axis == -1);
  CHECK(g.value(g.outputs()[0]).type.shape == Shape{1, 3});
  // Constants are folded into the operators, never imported as nodes or parameters.
  CHECK_FALSE(g.find_value("six").has_value());
  CHECK(g.nodes().size() == 9);
}

TEST_CASE("corrupted real files import or fail with GraphError, never anything else") {
  const std::string real = read_bytes(kData / "tiny-convnet.onnx");
  std::mt19937 random(7);
  int rejected = 0;
  for (int i = 0; i < 300; ++i) {
    std::string bytes = real;
    for (int flip = 0; flip < 4; ++flip) bytes[random() % bytes.size()] = static_cast<char>(random());
    try {
      validate(import::import_onnx_bytes(bytes, "mutated.onnx").graph);
    } catch (const GraphError&) {
      ++rejected;  // any other exception type escapes and fails the test
    }
  }
  // Both outcomes occur, so both branches above were exercised (libFuzzer, fuzz/, goes further).
  CHECK(rejected > 0);
  CHECK(rejected < 300);
}

TEST_CASE("corrupting only a file's weight bytes never changes the graph it imports") {
  // Any bit pattern is a float, so damage confined to raw weight data is not an error: the
  // file must import with exactly the original structure (a misparse would show here).
  const std::string real = read_bytes(kData / "tiny-convnet.onnx");
  ::onnx::ModelProto model;
  REQUIRE(model.ParseFromString(real));
  const auto largest = std::max_element(
      model.graph().initializer().begin(), model.graph().initializer().end(),
      [](const auto& a, const auto& b) { return a.raw_data().size() < b.raw_data().size(); });
  REQUIRE(largest != model.graph().initializer().end());
  const std::string& weights = largest->raw_data();
  REQUIRE(weights.size() >= 64);
  const size_t offset = real.find(weights);
  REQUIRE(offset != std::string::npos);
  const std::string original = structure_fingerprint(import::import_onnx_bytes(real, "tiny-convnet.onnx").graph);
  std::mt19937 random(11);
  for (int i = 0; i < 50; ++i) {
    std::string bytes = real;
    for (int flip = 0; flip < 4; ++flip) bytes[offset + random() % weights.size()] = static_cast<char>(random());
    CHECK(structure_fingerprint(import::import_onnx_bytes(bytes, "mutated.onnx").graph) == original);
  }
}

TEST_CASE("torchvision's inception-v3 export keeps no pad node after the inference passes") {
  Graph g = import::import_onnx(kData / "inception-v3.onnx").graph;
  const auto pads = [&] {
    return std::count_if(g.nodes().begin(), g.nodes().end(),
                         [](const Node& node) { return std::holds_alternative<Pad>(node.op); });
  };
  CHECK(pads() == 9);  // one before each 3x3 average pool of the Mixed blocks
  CHECK(prepare_for_inference(g).pads_folded == 9);
  CHECK(pads() == 0);
}

TEST_CASE("a reshape target whose extents multiply past 64 bits is a GraphError, not signed overflow") {
  // Found by fuzz/onnx_import_fuzz.cpp (UBSan: 2 * 8587857023682437892 in infer_reshape).
  ModelBuilder model;
  model.input("x", {1, 3, 8, 8}).ints("s", {2, 8587857023682437892, -1}).output("y");
  model.node("Reshape", "r", {"x", "s"}, "y");
  CHECK(error_of([&] { (void)model.import(); }).find("more elements than 64 bits can count") != std::string::npos);
}
