// fuse_channel_scales: squeeze-excite's Mul moves into the 1x1 projection that reads it, and
// only there; the scaled conv's IR (shapes, validation, input roles) around it.

#include "layoutopt/graph/passes/fuse_channel_scales.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "graph_fixtures.h"
#include "layoutopt/graph/error.h"
#include "layoutopt/graph/input_roles.h"
#include "layoutopt/graph/passes/fuse_epilogues.h"
#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/graph/validate.h"

using namespace layoutopt::graph;
using namespace layoutopt::graph::testing;
using layoutopt::layout::Layout;

namespace {

int count_muls(const Graph& g) {
  return static_cast<int>(std::count_if(g.nodes().begin(), g.nodes().end(),
                                        [](const Node& node) { return std::holds_alternative<Mul>(node.op); }));
}

const Node& node_named(const Graph& g, const std::string& name) { return g.node(*g.find_node(name)); }

/// Checks that `g`'s projection reads the silu's output scaled by the gate, and nothing else
/// of the Mul is left.
void check_fused(const Graph& g) {
  CHECK(count_muls(g) == 0);
  const Node& project = node_named(g, "project");
  CHECK(std::get<Conv2d>(project.op).input_scale);
  REQUIRE(project.inputs.size() == 3);
  CHECK(project.inputs[0] == *g.find_value("dw_silu"));
  CHECK(project.inputs[2] == *g.find_value("gate"));
  CHECK_FALSE(g.find_value("scale").has_value());
  validate(g);
}

}  // namespace

TEST_CASE("squeeze-excite's Mul fuses into the 1x1 projection, in either operand order and at batch 2") {
  for (const bool scale_first : {false, true})
    for (const int64_t batch : {1, 2}) {
      CAPTURE(scale_first);
      CAPTURE(batch);
      Graph g = squeeze_excite_block({.batch = batch, .scale_first = scale_first});
      const size_t nodes = g.nodes().size();
      CHECK(fuse_channel_scales(g) == 1);
      CHECK(g.nodes().size() == nodes - 1);
      check_fused(g);
    }
}

TEST_CASE("a Mul whose product someone else needs, or that a conv cannot take, stays") {
  Graph two_readers = squeeze_excite_block();
  two_readers.add_output(two_readers.add_node("also", Relu{}, {*two_readers.find_value("scale")}));
  Graph graph_output = squeeze_excite_block();
  graph_output.add_output(*graph_output.find_value("scale"));  // the user sees the product
  Graph three_by_three = squeeze_excite_block({.projection_kernel = 3});
  Graph grouped = squeeze_excite_block({.projection_groups = 2});
  for (Graph* g : {&two_readers, &graph_output, &three_by_three, &grouped}) {
    CHECK(fuse_channel_scales(*g) == 0);
    CHECK(count_muls(*g) == 1);
    CHECK_FALSE(std::get<Conv2d>(node_named(*g, "project").op).input_scale);
  }
}

TEST_CASE("only a computed per-image, per-channel factor is a channel scale") {
  // x * x: a per-pixel factor.
  Graph per_pixel("per_pixel");
  const ValueId x = per_pixel.add_input("x", {{1, 8, 6, 6}});
  const ValueId square = per_pixel.add_node("square", Mul{}, {x, x});
  per_pixel.add_output(conv(per_pixel, "project", square, 4, 1, 1, 0));
  // x * c with a constant c: belongs in the weights, not in an activation slot.
  Graph constant("constant");
  const ValueId y = constant.add_input("x", {{1, 8, 6, 6}});
  const ValueId factors = parameter(constant, "factors", {1, 8, 1, 1}, ParameterRole::bn_scale);
  constant.add_output(conv(constant, "project", constant.add_node("scale", Mul{}, {y, factors}), 4, 1, 1, 0));
  // x[2, 8, 6, 6] * s[1, 8, 1, 1]: one factor shared by both images would need a broadcast.
  Graph shared("shared");
  const ValueId z = shared.add_input("x", {{2, 8, 6, 6}});
  const ValueId first = shared.add_node("first", Slice{.axis = 0, .start = 0, .end = 1}, {z});
  const ValueId pooled = shared.add_node("pool", GlobalAvgPool{}, {first});
  shared.add_output(conv(shared, "project", shared.add_node("scale", Mul{}, {z, pooled}), 4, 1, 1, 0));
  for (Graph* g : {&per_pixel, &constant, &shared}) {
    CAPTURE(g->name());
    CHECK(fuse_channel_scales(*g) == 0);
    CHECK(count_muls(*g) == 1);
  }
}

TEST_CASE("a conv that reads the product as data and as its residual keeps the Mul") {
  Graph g("self_residual");
  const ValueId x = g.add_input("x", {{1, 8, 6, 6}});
  const ValueId scaled = g.add_node("scale", Mul{}, {x, g.add_node("pool", GlobalAvgPool{}, {x})});
  g.add_output(g.add_node("add", Add{}, {conv(g, "project", scaled, 8, 1, 1, 0), scaled}));
  REQUIRE(fuse_epilogues(g) == 1);  // project(scale) + scale: data and residual are the product
  REQUIRE(std::get<Conv2d>(node_named(g, "project").op).epilogue.residual);
  CHECK(fuse_channel_scales(g) == 0);
  CHECK(count_muls(g) == 1);
}

TEST_CASE("the pipeline fuses the gate into the excite conv and the scale into the projection, next to its residual") {
  Graph g = squeeze_excite_block();
  const PipelineReport report = prepare_for_inference(g);
  CHECK(report.channel_scales_fused == 1);
  CHECK(report.summary().find("and 1 channel scales") != std::string::npos);
  CHECK(std::get<Conv2d>(node_named(g, "excite").op).epilogue.activation == Activation::sigmoid);
  const Node& project = node_named(g, "project");
  const auto& conv = std::get<Conv2d>(project.op);
  CHECK(conv.input_scale);
  CHECK(conv.epilogue.residual);
  // x, weight, residual, scale: the optional inputs in the order ops.h lists them.
  const ConvInputs positions = conv_inputs(conv);
  REQUIRE(project.inputs.size() == positions.count);
  CHECK(project.inputs[*positions.residual] == *g.find_value("x"));
  CHECK(project.inputs[*positions.scale] == *g.find_value("excite"));
  const NodeId id = *g.find_node("project");
  CHECK(activation_input_roles(g, id) == std::vector{InputRole::data, InputRole::residual, InputRole::scale});
  CHECK(tuned_input_layouts(g, id, Layout::nchwc(8), Layout::nchwc(4)) ==
        std::vector{Layout::nchwc(8), Layout::nchwc(4), Layout::nchw()});
}

TEST_CASE("a hard-sigmoid gate (MobileNet-v3) fuses like a sigmoid one; an ONNX-default one is a node of its own") {
  Graph pytorch = squeeze_excite_block({.gate = HardSigmoid{.alpha = 1.0f / 6.0f, .beta = 0.5f}});
  CHECK(prepare_for_inference(pytorch).channel_scales_fused == 1);
  CHECK(std::get<Conv2d>(node_named(pytorch, "excite").op).epilogue.activation == Activation::hard_sigmoid);
  Graph onnx_default = squeeze_excite_block({.gate = HardSigmoid{.alpha = 0.2f, .beta = 0.5f}});
  CHECK(prepare_for_inference(onnx_default).channel_scales_fused == 1);
  CHECK(std::holds_alternative<HardSigmoid>(node_named(onnx_default, "gate").op));
  CHECK(std::get<Conv2d>(node_named(onnx_default, "project").op).input_scale);
}

TEST_CASE("shape inference and validation check a conv's input scale") {
  Graph g = squeeze_excite_block();
  REQUIRE(fuse_channel_scales(g) == 1);
  Node& project = g.node(*g.find_node("project"));
  // A per-pixel scale is not [N, C, 1, 1].
  Graph wrong_shape = g;
  wrong_shape.node(*wrong_shape.find_node("project")).inputs[2] = *wrong_shape.find_value("dw_silu");
  CHECK_THROWS_AS(validate(wrong_shape), GraphError);
  // A constant scale belongs in the weights.
  Graph constant = g;
  const ValueId factors = parameter(constant, "factors", {1, 16, 1, 1}, ParameterRole::bn_scale);
  constant.node(*constant.find_node("project")).inputs[2] = factors;
  CHECK_THROWS_WITH_AS(validate(constant), doctest::Contains("is a parameter"), GraphError);
  // Without its scale input the flag does not fit the inputs.
  project.inputs.pop_back();
  CHECK_THROWS_WITH_AS(validate(g), doctest::Contains("expected 3 inputs"), GraphError);
}
