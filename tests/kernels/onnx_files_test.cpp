// The ONNX files torch's default exporter writes (data/onnx/, written by
// scripts/export_torchvision.py) import, and the ones with weights give torch's outputs
// (computed by torch at export time) when the reference executor runs them.

#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "layoutopt/graph/error.h"
#include "layoutopt/graph/onnx/onnx_import.h"
#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/graph/workloads.h"
#include "layoutopt/graph/validate.h"
#include "layoutopt/kernels/network/compiled_network.h"
#include "layoutopt/kernels/network/default_schedule.h"
#include "layoutopt/kernels/reference/graph_executor.h"
#include "layoutopt/kernels/reference/host_tensor.h"
#include "support/tolerances.h"

using namespace layoutopt;
using kernels::reference::HostTensor;

namespace {

const std::filesystem::path kData = std::filesystem::path(LAYOUTOPT_SOURCE_DIR) / "data" / "onnx";

nlohmann::json read_json(const std::filesystem::path& path) {
  std::ifstream file(path);
  REQUIRE_MESSAGE(file.good(), "cannot open " << path);
  return nlohmann::json::parse(file);
}

/// The input every file with torch outputs was run on: sin(0.1 i) over the flat index i.
HostTensor formula_input(const std::vector<int64_t>& shape) {
  HostTensor input(shape);
  for (size_t i = 0; i < input.data.size(); ++i) input.data[i] = static_cast<float>(std::sin(0.1 * static_cast<double>(i)));
  return input;
}

/// Largest difference of `actual` to torch's output of `run`, relative to the output's largest
/// magnitude; -1 when the shapes differ.
double difference_to_torch(const HostTensor& actual, const nlohmann::json& run) {
  HostTensor want(run.at("output_shape").get<std::vector<int64_t>>());
  want.data = run.at("output").get<std::vector<float>>();
  if (actual.shape != want.shape) return -1;
  return kernels::reference::max_relative_difference(want, actual);
}

HostTensor run_input(const nlohmann::json& run) {
  return formula_input(run.at("input_shape").get<std::vector<int64_t>>());
}

/// As above for the reference executor's output of `g` on the formula input.
double difference_to_torch(const graph::Graph& g, const nlohmann::json& run) {
  return difference_to_torch(kernels::reference::run_graph(g, {run_input(run)}).front(), run);
}

/// `g` prepared for inference and compiled with its default schedule.
kernels::CompiledNetwork compiled(graph::Graph& g, graph::PipelineReport& report) {
  report = graph::prepare_for_inference(g);
  return kernels::CompiledNetwork::compile(g, kernels::default_network_schedule(g));
}

/// Against torch's outputs (scripts/export_torchvision.py's check: ONNX Runtime agrees with
/// torch to 6e-7).
constexpr double kTolerance = testing::kNetworkRelative;

/// refill_weights.py's rules for the stripped torch-2 files, with our own seeded generator:
/// in initializer order, float tensors marked doc_string "stripped" get N(0, 1)/sqrt(fan_in)
/// values when their rank is above 1, else uniform values in [0.5, 1.5].
std::string refilled_model_bytes(const std::filesystem::path& path, uint32_t seed) {
  ::onnx::ModelProto model;
  std::ifstream file(path, std::ios::binary);
  REQUIRE(model.ParseFromIstream(&file));
  std::mt19937 random(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_real_distribution<float> uniform(0.5f, 1.5f);
  for (::onnx::TensorProto& tensor : *model.mutable_graph()->mutable_initializer()) {
    if (tensor.data_type() != ::onnx::TensorProto::FLOAT || tensor.doc_string() != "stripped") continue;
    int64_t count = 1, fan_in = 1;
    for (int d = 0; d < tensor.dims_size(); ++d) {
      count *= tensor.dims(d);
      if (d > 0) fan_in *= tensor.dims(d);
    }
    const float scale = 1.0f / std::sqrt(static_cast<float>(std::max<int64_t>(fan_in, 1)));
    tensor.clear_raw_data();
    tensor.clear_float_data();
    for (int64_t i = 0; i < count; ++i) tensor.add_float_data(tensor.dims_size() > 1 ? normal(random) * scale : uniform(random));
    tensor.clear_doc_string();
  }
  return model.SerializeAsString();
}

}  // namespace

TEST_CASE("every tiny default export in data/onnx/ops imports and gives torch's output") {
  const nlohmann::json expected = read_json(kData / "ops" / "expected.json");
  REQUIRE(expected.at("models").size() >= 30);
  for (const auto& model : expected.at("models").items()) {
    // Not a structured binding: clang 14 (the sanitized build) cannot capture one in
    // CAPTURE's and CHECK_MESSAGE's lambdas.
    const std::string key = model.key();
    const nlohmann::json& entry = model.value();
    CAPTURE(key);
    if (key.starts_with("lrn-")) continue;  // see the next test case
    const auto shape = entry.at("input_shape").get<std::vector<int64_t>>();
    try {
      const graph::onnx::ImportResult result = graph::onnx::import_onnx(kData / "ops" / entry.at("file").get<std::string>(),
                                                                        {.batch = shape.front()});
      graph::validate(result.graph);
      CHECK(result.opset == entry.at("opset").get<int64_t>());
      CHECK(result.generated_parameters == 0);  // every weight comes from the file
      const double difference = difference_to_torch(result.graph, entry);
      CHECK_MESSAGE(difference >= 0, "output shape differs from torch's " << entry.at("output_shape"));
      CHECK(difference < kTolerance);
      for (const nlohmann::json& run : entry.value("batches", nlohmann::json::array())) {  // dynamic batch axis
        const int64_t batch = run.at("input_shape").at(0).get<int64_t>();
        CAPTURE(batch);
        const graph::Graph g = graph::onnx::import_onnx(kData / "ops" / entry.at("file").get<std::string>(), {.batch = batch}).graph;
        const double batch_difference = difference_to_torch(g, run);
        CHECK(batch_difference >= 0);
        CHECK(batch_difference < kTolerance);
      }
    } catch (const std::exception& error) {
      FAIL_CHECK("import or run failed: " << std::string(error.what()));
    }
  }
}

// torch writes LocalResponseNorm as its 5-D decomposition (unsqueeze, 3-D pad, 3-D average
// pool; under an If from opset 11): the IR's LRN covers the ONNX LRN operator only, so these
// files must fail with a message naming the node, not crash or import wrongly.
TEST_CASE("torch's decomposed LocalResponseNorm is refused naming the node") {
  for (const char* file : {"lrn-opset9.onnx", "lrn-opset14.onnx"}) {
    CAPTURE(file);
    try {
      (void)graph::onnx::import_onnx(kData / "ops" / file);
      FAIL_CHECK("imported");
    } catch (const graph::GraphError& error) {
      const std::string message = error.what();
      CHECK((message.find("node '/lrn/") != std::string::npos || message.find("(nodes: /lrn/") != std::string::npos));
    }
  }
}

TEST_CASE("tiny-convnet, exported with defaults and weights, gives torch's output") {
  const nlohmann::json entry = read_json(kData / "expected.json").at("models").at("tiny-convnet");
  const graph::onnx::ImportResult result = graph::onnx::import_onnx(kData / "tiny-convnet.onnx");
  graph::validate(result.graph);
  CHECK(result.generated_parameters == 0);
  // bn1 was folded into conv1 by the exporter: the file's weights are what torch runs.
  CHECK(graph::parameter_count(result.graph) == entry.at("parameters_in_file").get<int64_t>());
  const double difference = difference_to_torch(result.graph, entry);
  CHECK(difference >= 0);
  CHECK(difference < kTolerance);
}

TEST_CASE("torch 2.11 exports (dynamo and legacy opset 17) import once their stripped weights are refilled") {
  for (const char* file : {"tv_mobilenet_v3_large.dynamo.onnx", "tv_shufflenet_v2_x1_0.legacy17.onnx"}) {
    CAPTURE(file);
    try {
      const graph::onnx::ImportResult result =
          graph::onnx::import_onnx_bytes(refilled_model_bytes(kData / "torch2" / file, 0), file);
      const graph::Graph& g = result.graph;
      graph::validate(g);
      CHECK(result.generated_parameters == 0);
      CHECK(g.value(g.inputs()[0]).type.shape == graph::Shape{1, 3, 224, 224});
      CHECK(g.value(g.outputs()[0]).type.shape == graph::Shape{1, 1000});
      const auto outputs = kernels::reference::run_graph(g, {formula_input({1, 3, 224, 224})});
      for (float v : outputs.front().data) REQUIRE(std::isfinite(v));
    } catch (const std::exception& error) {
      FAIL_CHECK("import or run failed: " << std::string(error.what()));
    }
  }
}

TEST_CASE("the squeeze-excite files run compiled like torch; their scale, the graph's output, stays a Mul") {
  const nlohmann::json expected = read_json(kData / "ops" / "expected.json");
  for (const char* key : {"se_hardswish-opset9", "se_hardswish-opset11", "se_hardswish-opset14"}) {
    CAPTURE(key);
    const nlohmann::json& entry = expected.at("models").at(key);
    graph::Graph g = graph::onnx::import_onnx(kData / "ops" / entry.at("file").get<std::string>()).graph;
    graph::PipelineReport report;
    kernels::CompiledNetwork network = compiled(g, report);
    CHECK(report.channel_scales_fused == 0);  // the user reads the product: nothing to fuse into
    const double difference = difference_to_torch(network.run({run_input(entry)}).front(), entry);
    CHECK(difference >= 0);
    CHECK(difference < kTolerance);
  }
}

TEST_CASE("DenseNet's transition and ResNet's projection run compiled like torch, pool first and subsampled") {
  const nlohmann::json entry = read_json(kData / "ops" / "expected.json").at("models").at("transition_projection-opset14");
  graph::Graph g = graph::onnx::import_onnx(kData / "ops" / entry.at("file").get<std::string>()).graph;
  graph::PipelineReport report;
  kernels::CompiledNetwork network = compiled(g, report);
  CHECK(report.pools_moved_before_convs == 1);
  CHECK(report.strided_convs_subsampled == 1);
  const double difference = difference_to_torch(network.run({run_input(entry)}).front(), entry);
  CHECK(difference >= 0);
  CHECK(difference < kTolerance);
}

TEST_CASE("MobileNet-v3's squeeze-excite scales run inside their projections, like the reference of the file") {
  const char* file = "tv_mobilenet_v3_large.dynamo.onnx";
  const graph::Graph unfused =
      graph::onnx::import_onnx_bytes(refilled_model_bytes(kData / "torch2" / file, 0), file).graph;
  graph::Graph g = unfused;
  graph::PipelineReport report;
  kernels::CompiledNetwork network = compiled(g, report);
  CHECK(report.channel_scales_fused > 0);
  // Every squeeze-excite product fed a projection: no Mul is left.
  for (const graph::Node& node : g.nodes()) CHECK_FALSE(std::holds_alternative<graph::Mul>(node.op));
  const HostTensor input = formula_input(g.value(g.inputs()[0]).type.shape);
  const HostTensor expected = kernels::reference::run_graph(unfused, {input}).front();
  CHECK(kernels::reference::max_relative_difference(expected, network.run({input}).front()) < testing::kCompiledNetworkRelative);
}
