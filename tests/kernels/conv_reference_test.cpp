// Convolution and dense against torch, an implementation that is not ours: the cases of
// data/onnx/conv-reference/ (written by scripts/export_conv_references.py with torch's
// output on a stored input) cover groups, depthwise, dilation, strides, asymmetric and
// TF-style 'same' padding, kernels 1x1 to 7x7, dense layers and every epilogue the importer
// fuses. Each prepared case is one conv or dense node, so the reference executor runs it as
// one call of reference::conv2d or reference::dense: matching torch validates the naive
// reference the other kernel tests compare against. Then every kernel family (direct,
// grouped, depthwise, Winograd at each tile size, dense) runs each case compiled, under the
// default schedule and forced ones, and must match torch too.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "layoutopt/graph/input_roles.h"
#include "layoutopt/graph/onnx/onnx_import.h"
#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/graph/validate.h"
#include "layoutopt/kernels/lowering.h"
#include "layoutopt/kernels/network/compiled_network.h"
#include "layoutopt/kernels/network/default_schedule.h"
#include "layoutopt/kernels/reference/graph_executor.h"
#include "layoutopt/kernels/reference/npy_io.h"
#include "layoutopt/kernels/tunable_op.h"
#include "support/tolerances.h"

using namespace layoutopt;
using kernels::reference::HostTensor;

namespace {

const std::filesystem::path kCases = std::filesystem::path(LAYOUTOPT_SOURCE_DIR) / "data" / "onnx" / "conv-reference";

/// One case of cases.json: its model files (one per exported opset), input and torch's output.
struct TorchCase {
  std::string name;
  std::vector<std::string> files;  ///< the default opset's first
  HostTensor input, output;
};

std::vector<TorchCase> load_cases() {
  std::ifstream file(kCases / "cases.json");
  REQUIRE_MESSAGE(file.good(), "cannot open " << kCases / "cases.json");
  const nlohmann::json manifest = nlohmann::json::parse(file);
  const std::string default_opset = std::to_string(manifest.at("opsets").at(0).get<int64_t>());
  std::vector<TorchCase> cases;
  for (const auto& [name, entry] : manifest.at("cases").items()) {
    TorchCase c{name, {}, kernels::reference::load_npy(kCases / entry.at("input").get<std::string>()),
                kernels::reference::load_npy(kCases / entry.at("output").get<std::string>())};
    for (const auto& [opset, model] : entry.at("files").items())
      c.files.insert(opset == default_opset ? c.files.begin() : c.files.end(), model.get<std::string>());
    cases.push_back(std::move(c));
  }
  return cases;
}

graph::Graph import_case(const std::string& file) {
  const graph::onnx::ImportResult result = graph::onnx::import_onnx(kCases / file);
  graph::validate(result.graph);
  CHECK(result.generated_parameters == 0);  // every weight is torch's
  return result.graph;
}

/// max|actual - torch| / max|torch|, for the graph's only output.
double difference_to_torch(const std::vector<HostTensor>& outputs, const TorchCase& c) {
  REQUIRE(outputs.size() == 1);
  return kernels::reference::max_relative_difference(c.output, outputs.front());
}

bool is_conv_or_dense(const graph::Node& node) {
  return std::holds_alternative<graph::Conv2d>(node.op) || std::holds_alternative<graph::Dense>(node.op);
}

/// Every algorithm of a conv / dense node: the direct family the desc picks (conv2d, grouped
/// or depthwise), then Winograd where it applies; or dense.
std::vector<kernels::TunableOp> algorithms(const graph::Graph& g, graph::NodeId id) {
  if (std::holds_alternative<graph::Dense>(g.node(id).op)) return {kernels::TunableOp::dense(kernels::dense_desc(g, id))};
  return kernels::TunableOp::conv2d_algorithms(kernels::conv2d_desc(g, id));
}

/// Configs to run of one algorithm: its default, each Winograd tile size at the default's
/// other knobs, and a seeded random point of its space (blocks, register tiles, orders).
std::vector<int64_t> configs_to_run(const kernels::TunableOp& op, std::mt19937& rng) {
  std::vector<int64_t> configs{op.default_index()};
  if (op.family() == kernels::OpFamily::winograd_conv2d)
    for (int64_t m : op.space().values("tile_m")) {
      std::map<std::string, int64_t> knobs = op.knobs(op.default_index());
      knobs["tile_m"] = m;
      configs.push_back(op.index_of(knobs).value());
    }
  configs.push_back(static_cast<int64_t>(rng() % static_cast<uint64_t>(op.space().size())));
  return configs;
}

std::string knob_text(const std::map<std::string, int64_t>& knobs) {
  std::string text;
  for (const auto& [name, value] : knobs) text += name + "=" + std::to_string(value) + " ";
  return text;
}

/// `schedule` with node `id` running config `index` of `op`.
kernels::NetworkSchedule with_config(const graph::Graph& g, kernels::NetworkSchedule schedule, graph::NodeId id,
                                     const kernels::TunableOp& op, int64_t index) {
  const kernels::OpLayouts layouts = op.layouts(index);
  kernels::NodeSchedule& s = schedule.nodes[static_cast<size_t>(id)];
  s.knobs = op.knobs(index);
  s.inputs = graph::tuned_input_layouts(g, id, layouts.input, layouts.output);
  s.output = layouts.output;
  return schedule;
}

/// Compiles `g` with `schedule`, checks that every node ran a JIT kernel and the output is torch's.
void check_compiled(const graph::Graph& g, const kernels::NetworkSchedule& schedule, const TorchCase& c) {
  kernels::CompiledNetwork network = kernels::CompiledNetwork::compile(g, schedule);
  CHECK(network.summary().fallbacks == 0);
  CHECK(difference_to_torch(network.run({c.input}), c) < testing::kNetworkRelative);
}

}  // namespace

TEST_CASE("the reference conv2d and dense give torch's output on every conv-reference case") {
  const std::vector<TorchCase> cases = load_cases();
  REQUIRE(cases.size() >= 40);
  for (const TorchCase& c : cases)
    for (const std::string& file : c.files) {
      CAPTURE(file);
      graph::Graph g = import_case(file);
      // As imported: separate pad, activation and add nodes around the conv.
      CHECK(difference_to_torch(kernels::reference::run_graph(g, {c.input}), c) < testing::kNetworkRelative);
      // Prepared: padding, bias, activations and the residual fused into one node, which the
      // executor runs as one reference::conv2d or reference::dense call.
      graph::prepare_for_inference(g);
      REQUIRE(g.nodes().size() == 1);
      REQUIRE(is_conv_or_dense(g.nodes().front()));
      CHECK(difference_to_torch(kernels::reference::run_graph(g, {c.input}), c) < testing::kNetworkRelative);
    }
}

TEST_CASE("every kernel family computes every conv-reference case like torch, under default and forced schedules") {
  std::set<kernels::OpFamily> families;
  std::mt19937 rng(17);
  for (const TorchCase& c : load_cases()) {
    const std::string& file = c.files.front();  // the other opsets prepare to the same node
    CAPTURE(file);
    graph::Graph g = import_case(file);
    graph::prepare_for_inference(g);
    const kernels::NetworkSchedule defaults = kernels::default_network_schedule(g);
    check_compiled(g, defaults, c);
    for (size_t n = 0; n < g.nodes().size(); ++n) {
      const auto id = static_cast<graph::NodeId>(n);
      for (const kernels::TunableOp& op : algorithms(g, id)) {
        families.insert(op.family());
        for (int64_t index : configs_to_run(op, rng)) {
          CAPTURE(op.str());
          CAPTURE(knob_text(op.knobs(index)));
          check_compiled(g, with_config(g, defaults, id, op, index), c);
        }
      }
    }
  }
  CHECK(families == std::set<kernels::OpFamily>{kernels::OpFamily::conv2d, kernels::OpFamily::group_conv2d,
                                                 kernels::OpFamily::depthwise_conv2d,
                                                 kernels::OpFamily::winograd_conv2d, kernels::OpFamily::dense,
                                                 kernels::OpFamily::gemm_conv2d});
}
