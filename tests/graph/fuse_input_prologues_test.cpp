// fuse_input_prologues: DenseNet's pre-activation batch norm + ReLU moves into the 1x1 conv
// that reads it, and only there; the prologue conv's IR (shapes, validation, JSON) around it.

#include "layoutopt/graph/passes/fuse_input_prologues.h"

#include <doctest/doctest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "graph_fixtures.h"
#include "layoutopt/graph/error.h"
#include "layoutopt/graph/json_io.h"
#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/graph/validate.h"

using namespace layoutopt::graph;
using namespace layoutopt::graph::testing;

namespace {

const Node& node_named(const Graph& g, const std::string& name) { return g.node(*g.find_node(name)); }

int count_batch_norms(const Graph& g) {
  int count = 0;
  for (const Node& node : g.nodes()) count += std::holds_alternative<BatchNorm>(node.op) ? 1 : 0;
  return count;
}

struct DenseLayer {
  int64_t kernel = 1;       ///< the conv reading the normalized tensor: k x k, padded to keep the size
  int64_t groups = 1;
  Op activation = Relu{};   ///< after the batch norm
  bool second_reader = false;  ///< a relu that also reads the activation
};

/// A DenseNet layer's first half as PyTorch exports it: "norm" batch norm -> "relu" ->
/// "conv" (1x1 by default) -> output.
Graph dense_layer(const DenseLayer& layer = {}) {
  Graph g("dense_layer");
  const ValueId x = g.add_input("x", {{1, 8, 6, 6}});
  const ValueId activated = g.add_node("relu", layer.activation, {batch_norm(g, "norm", x)});
  const int64_t k = layer.kernel;
  const int64_t pad = (k - 1) / 2;
  const ValueId w = parameter(g, "conv.weight", {16, 8 / layer.groups, k, k}, ParameterRole::conv_weight);
  g.add_output(g.add_node("conv", Conv2d{.kernel = {k, k}, .pads = {pad, pad, pad, pad}, .groups = layer.groups},
                          {activated, w}));
  if (layer.second_reader) g.add_output(g.add_node("also", Relu{}, {activated}));
  return g;
}

}  // namespace

TEST_CASE("a batch norm + relu moves into the 1x1 conv reading it, folded into a scale and a shift") {
  Graph g = dense_layer();
  const Graph built = g;
  const PipelineReport report = prepare_for_inference(g);
  CHECK(report.input_prologues_fused == 1);
  CHECK(count_batch_norms(g) == 0);
  const Node& conv = node_named(g, "conv");
  const auto& op = std::get<Conv2d>(conv.op);
  REQUIRE(op.prologue);
  CHECK(op.prologue->activation == Activation::relu);
  REQUIRE(conv.inputs.size() == 4);
  CHECK(conv.inputs[0] == *g.find_value("x"));
  const ConvInputs inputs = conv_inputs(op);
  CHECK(inputs.prologue_scale == 2);
  CHECK(inputs.prologue_shift == 3);

  // scale = gamma / sqrt(variance + epsilon), shift = beta - mean * scale, per channel.
  const auto values = [&](const Graph& graph, const std::string& name) {
    return graph.value(*graph.find_value(name)).weights->values();
  };
  const auto gamma = values(built, "norm.weight"), beta = values(built, "norm.bias");
  const auto mean = values(built, "norm.running_mean"), variance = values(built, "norm.running_var");
  const auto scale = g.value(conv.inputs[2]).weights->values();
  const auto shift = g.value(conv.inputs[3]).weights->values();
  REQUIRE(scale.size() == 8);
  for (size_t c = 0; c < 8; ++c) {
    const double s = gamma[c] / std::sqrt(static_cast<double>(variance[c]) + 1e-5);
    CHECK(scale[c] == doctest::Approx(s).epsilon(1e-6));
    CHECK(shift[c] == doctest::Approx(beta[c] - mean[c] * s).epsilon(1e-5));
  }
}

TEST_CASE("a batch norm someone else reads, or before a conv that cannot take it, stays") {
  Graph two_readers = dense_layer({.second_reader = true});
  Graph three_by_three = dense_layer({.kernel = 3});
  Graph grouped = dense_layer({.groups = 2});
  Graph sigmoid = dense_layer({.activation = Sigmoid{}});  // an exp per element, per output tile
  for (Graph* g : {&two_readers, &three_by_three, &grouped, &sigmoid}) {
    CHECK(prepare_for_inference(*g).input_prologues_fused == 0);
    CHECK(count_batch_norms(*g) == 1);
    CHECK_FALSE(std::get<Conv2d>(node_named(*g, "conv").op).prologue);
  }
}

TEST_CASE("a prologue conv round-trips through JSON and its constants are checked") {
  Graph g = dense_layer();
  prepare_for_inference(g);
  const NodeId conv = *g.find_node("conv");
  const nlohmann::json document = to_json(g);
  CHECK(document["nodes"][conv]["attrs"]["prologue"]["activation"] == "relu");
  const Graph back = graph_from_json(document);
  CHECK(to_json(back) == document);
  CHECK(std::get<Conv2d>(back.node(conv).op) == std::get<Conv2d>(g.node(conv).op));

  // A scale of the wrong shape (here the conv's weight) names the prologue.
  nlohmann::json wrong = document;
  wrong["nodes"][conv]["inputs"][2] = g.value(g.node(conv).inputs[1]).name;
  CHECK_THROWS_WITH_AS(graph_from_json(wrong), doctest::Contains("prologue's scale"), GraphError);

  // A computed scale is refused: the kernels read the prologue with the weights.
  Graph computed = g;
  const ValueId scale = computed.add_node("computed", Relu{}, {computed.add_input("s", {{8}})});
  computed.node(conv).inputs[2] = scale;  // after add_node, which may move the nodes
  CHECK_THROWS_WITH_AS(validate(computed), doctest::Contains("prologue"), GraphError);
}
