// ConvNeXt's, ViT's and Swin's operators (LayerNorm, GELU, MatMul as 1x1 conv or dense, batched
// MatMul, the class token Concat, Swin's rank-5 and rank-6 window permutes) run compiled like torch: torch's exports in data/onnx/ops
// (scripts/export_torchvision.py), prepared for inference and compiled with their default
// schedule, against the outputs torch computed at export.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "layoutopt/graph/onnx/onnx_import.h"
#include "layoutopt/kernels/activation.h"
#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/kernels/network/compiled_network.h"
#include "layoutopt/kernels/network/default_schedule.h"
#include "layoutopt/kernels/reference/host_tensor.h"
#include "layoutopt/kernels/reference/tensor_ops.h"
#include "support/tolerances.h"

using namespace layoutopt;
using kernels::reference::HostTensor;

namespace {

const std::filesystem::path kOps = std::filesystem::path(LAYOUTOPT_SOURCE_DIR) / "data" / "onnx" / "ops";

/// torch's output for `key`, and the input it ran on: sin(0.1 i) over the flat index i.
struct TorchRun {
  HostTensor input, output;
};

TorchRun torch_run(const std::string& key) {
  std::ifstream file(kOps / "expected.json");
  REQUIRE(file.good());
  const nlohmann::json entry = nlohmann::json::parse(file).at("models").at(key);
  TorchRun run{HostTensor(entry.at("input_shape").get<std::vector<int64_t>>()),
               HostTensor(entry.at("output_shape").get<std::vector<int64_t>>())};
  for (size_t i = 0; i < run.input.data.size(); ++i) run.input.data[i] = static_cast<float>(std::sin(0.1 * static_cast<double>(i)));
  run.output.data = entry.at("output").get<std::vector<float>>();
  return run;
}

}  // namespace

TEST_CASE("ConvNeXt, ViT, Swin and MaxViT blocks exported by torch run compiled with torch's output") {
  for (const char* key : {"gelu-opset14", "gelu_tanh-opset14", "layer_norm-opset14", "layer_norm-opset17",
                          "convnext_block-opset14", "convnext_block-opset17", "vit_tiny-opset14", "vit_tiny-opset17",
                          "swin_tiny-opset14", "swin_tiny-opset17", "einsum-opset14", "einsum-opset17",
                          "maxvit_tiny-opset14", "maxvit_tiny-opset17"}) {
    CAPTURE(key);
    graph::Graph g = graph::onnx::import_onnx(kOps / (std::string(key) + ".onnx")).graph;
    (void)graph::prepare_for_inference(g);
    kernels::CompiledNetwork network = kernels::CompiledNetwork::compile(g, kernels::default_network_schedule(g));
    const TorchRun run = torch_run(key);
    const HostTensor actual = network.run({run.input}).front();
    REQUIRE(actual.shape == run.output.shape);
    CHECK(kernels::reference::max_relative_difference(run.output, actual) < testing::kNetworkRelative);
  }
}

TEST_CASE("the reference batched product broadcasts leading axes like separate matrix products") {
  HostTensor a({2, 1, 2, 3}), b({3, 3, 2});
  for (size_t i = 0; i < a.data.size(); ++i) a.data[i] = static_cast<float>(i % 7) - 3.0f;
  for (size_t i = 0; i < b.data.size(); ++i) b.data[i] = 0.5f * static_cast<float>(i % 5) - 1.0f;
  const HostTensor out = kernels::reference::batch_matmul(a, b, {2, 3, 2, 2});
  for (int64_t p = 0; p < 2; ++p)
    for (int64_t q = 0; q < 3; ++q)
      for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 2; ++j) {
          float want = 0.0f;
          for (int64_t r = 0; r < 3; ++r)
            want += a.data[static_cast<size_t>((p * 2 + i) * 3 + r)] * b.data[static_cast<size_t>((q * 3 + r) * 2 + j)];
          CHECK(out.data[static_cast<size_t>(((p * 3 + q) * 2 + i) * 2 + j)] == doctest::Approx(want));
        }
}

// The JIT's erf is a rational fit (jit/math_ir.h): GELU through it against std::erf in
// double over [-10, 10) in steps of 1e-4, and torch's tanh form against std::tanh.
TEST_CASE("the GELU kernels match erf and tanh in double over a dense range") {
  HostTensor sweep({1, 16, 125, 100});
  for (size_t i = 0; i < sweep.data.size(); ++i) sweep.data[i] = -10.0F + 1e-4F * static_cast<float>(i);
  for (const kernels::ActivationOp op : {kernels::ActivationOp::gelu, kernels::ActivationOp::gelu_tanh}) {
    CAPTURE(kernels::to_string(op));
    const kernels::ActivationDesc desc{{1, 16, 125, 100, 16}, op};
    std::vector<float> in(sweep.data.size()), out(sweep.data.size());
    // NCHW16c of [1, 16, 125, 100]: element (c, h, w) at (h * 100 + w) * 16 + c.
    for (size_t c = 0; c < 16; ++c)
      for (size_t hw = 0; hw < 12500; ++hw) in[hw * 16 + c] = sweep.data[c * 12500 + hw];
    kernels::compile_activation(desc, {})({.input = in.data(), .output = out.data()});
    double worst = 0.0;
    for (size_t i = 0; i < in.size(); ++i) {
      const double x = in[i];
      const double phi = op == kernels::ActivationOp::gelu
                             ? 0.5 * (1.0 + std::erf(x / std::sqrt(2.0)))
                             : 0.5 * (1.0 + std::tanh(std::sqrt(2.0 / 3.14159265358979323846) * (x + 0.044715 * x * x * x)));
      worst = std::max(worst, std::abs(out[i] - x * phi) / std::max(1.0, std::abs(x)));
    }
    CHECK(worst < 1e-6);
  }
}
