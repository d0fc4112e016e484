// The reference executor runs whole networks; the inference passes must not change results.

#include "layoutopt/kernels/reference/graph_executor.h"

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../graph/graph_fixtures.h"
#include "layoutopt/graph/onnx/onnx_import.h"
#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/graph/zoo/zoo.h"
#include "layoutopt/kernels/error.h"
#include "support/tolerances.h"

using namespace layoutopt;
using kernels::reference::HostTensor;

namespace {

HostTensor random_input(const graph::Graph& g, uint64_t seed) {
  HostTensor t(g.value(g.inputs()[0]).type.shape);
  for (size_t i = 0; i < t.data.size(); ++i) t.data[i] = graph::uniform_at(seed, i, 0.0f, 1.0f);
  return t;
}

void check_passes_preserve_outputs(graph::Graph g) {
  const std::vector<HostTensor> inputs{random_input(g, 3)};
  const auto before = kernels::reference::run_graph(g, inputs);
  graph::prepare_for_inference(g);
  const auto after = kernels::reference::run_graph(g, inputs);
  REQUIRE(before.size() == after.size());
  for (size_t i = 0; i < before.size(); ++i) {
    CHECK(before[i].shape == after[i].shape);
    // fp32 weights are rounded once more by folding: a few ulps relative to the output scale.
    CHECK(kernels::reference::max_relative_difference(before[i], after[i]) < testing::kRescheduledRelative);
    bool finite = true;
    for (float v : after[i].data) finite = finite && std::isfinite(v);
    CHECK(finite);
  }
}

}  // namespace

TEST_CASE("batch-norm folding and epilogue fusion keep the residual block's output") {
  check_passes_preserve_outputs(graph::testing::residual_block());
}

TEST_CASE("folding zero pads into convs and average pools keeps the outputs") {
  check_passes_preserve_outputs(graph::testing::explicit_pads());
}

TEST_CASE("moving average pools before 1x1 convs keeps the outputs") {
  check_passes_preserve_outputs(graph::testing::pooled_projections());
}

TEST_CASE("subsampling the input of strided 1x1 convs keeps the outputs") {
  check_passes_preserve_outputs(graph::testing::strided_projections());
}

TEST_CASE("merging the sum of two 1x1 convs into one keeps the outputs") {
  check_passes_preserve_outputs(graph::testing::projection_block());
}

TEST_CASE("inference passes keep zoo networks' outputs") {
  for (const char* name : {"resnet-18", "resnet-50", "mobilenet-v2", "squeezenet-1.1", "densenet-121"}) {
    CAPTURE(name);
    check_passes_preserve_outputs(graph::zoo::build(name, {.image_size = 64}));
  }
}

TEST_CASE("the executor rejects inputs of the wrong shape or count") {
  const graph::Graph g = graph::testing::residual_block();
  CHECK_THROWS_AS(kernels::reference::run_graph(g, {}), kernels::KernelError);
  CHECK_THROWS_WITH_AS(kernels::reference::run_graph(g, {HostTensor({1, 8, 9, 10})}),
                       doctest::Contains("must have shape [1, 8, 10, 10]"), kernels::KernelError);
}

TEST_CASE("an ONNX model with weights gives PyTorch's output") {
  // data/onnx/expected.json holds torch's own output of tiny-convnet on input sin(0.1 i),
  // written by scripts/export_torchvision.py together with the model.
  const std::filesystem::path data = std::filesystem::path(LAYOUTOPT_SOURCE_DIR) / "data" / "onnx";
  const auto expected = nlohmann::json::parse(std::ifstream(data / "expected.json"))["models"]["tiny-convnet"];
  graph::Graph g = graph::onnx::import_onnx(data / "tiny-convnet.onnx").graph;
  HostTensor input(g.value(g.inputs()[0]).type.shape);
  for (size_t i = 0; i < input.data.size(); ++i) input.data[i] = static_cast<float>(std::sin(0.1 * static_cast<double>(i)));
  HostTensor want(expected["output_shape"].get<std::vector<int64_t>>());
  want.data = expected["output"].get<std::vector<float>>();
  for (bool prepared : {false, true}) {
    CAPTURE(prepared);
    if (prepared) graph::prepare_for_inference(g);
    const auto got = kernels::reference::run_graph(g, {input});
    // Relative to the output's largest magnitude, not per element: torch sums in another
    // order, and a per-element relative bound is meaningless on outputs near zero.
    CHECK(kernels::reference::max_relative_difference(want, got[0]) < testing::kNetworkRelative);
  }
}
