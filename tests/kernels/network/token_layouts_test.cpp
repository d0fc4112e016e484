// Swin's token tensors ([1, H, W, C] and [windows, heads, tokens, tokens]) as 4-D tensors in
// blocked layouts (the default schedule blocks axis 1 whenever 8 or 16 divides it): layer
// norm over an axis the layout keeps whole, a constant broadcast to a blocked output, and
// slices along a whole axis run as kernels (or views), checked against the reference
// executor in every layout they run in.

#include <doctest/doctest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "../op_check.h"
#include "layoutopt/kernels/network/compiled_network.h"
#include "layoutopt/kernels/network/default_schedule.h"
#include "layoutopt/kernels/reference/graph_executor.h"
#include "support/tolerances.h"

using namespace layoutopt;
using kernels::reference::HostTensor;
using layout::Layout;

namespace {

graph::ValueId constant(graph::Graph& g, const std::string& name, graph::Shape shape, float center, float spread) {
  const int64_t count = graph::element_count(shape);
  return g.add_parameter(name, std::move(shape), graph::WeightData::seeded({31 + g.values().size(), center, spread}, count));
}

/// Compiles `g` with node `name` reading and writing `layout` and checks two random inputs
/// against the reference; returns how that node's step runs.
/// The kind of node `name`'s own step; nullopt for a view (no step: the output is the input's memory).
std::optional<kernels::StepKind> run_in_layout(const graph::Graph& g, const std::string& name, const Layout& layout) {
  kernels::NetworkSchedule schedule = kernels::default_network_schedule(g);
  kernels::NodeSchedule& node = schedule.nodes.at(static_cast<size_t>(*g.find_node(name)));
  for (Layout& input : node.inputs) input = layout;
  node.output = layout;
  auto network = kernels::CompiledNetwork::compile(g, schedule);
  for (const unsigned seed : {5U, 6U}) {
    CAPTURE(seed);
    const std::vector<HostTensor> inputs{kernels::testing::random_tensor(g.value(g.inputs()[0]).type.shape, seed)};
    const std::vector<HostTensor> expected = kernels::reference::run_graph(g, inputs);
    const std::vector<HostTensor> actual = network.run(inputs);
    REQUIRE(actual.size() == 1);
    CHECK(actual[0].shape == expected[0].shape);
    CHECK(kernels::reference::max_relative_difference(expected[0], actual[0]) < testing::kCompiledNetworkRelative);
  }
  // A graph output in another layout than the canonical one ends in a transform of that name.
  for (const kernels::NetworkStep& step : network.steps())
    if (step.name == name && step.kind != kernels::StepKind::transform) return step.kind;
  CHECK(network.summary().views >= 1);
  return std::nullopt;
}

}  // namespace

TEST_CASE("layer norm over an axis its layout keeps whole is a kernel in every such layout") {
  // [1, 16, 6, 20]: Swin's [N, H, W, C] normalized over C = axis 3, and over axis 2.
  const graph::Shape shape{1, 16, 6, 20};
  for (const int64_t axis : {3, 2}) {
    CAPTURE(axis);
    graph::Graph g("token_norm");
    const graph::ValueId x = g.add_input("x", {shape});
    const int64_t channels = shape[static_cast<size_t>(axis)];
    g.add_output(g.add_node("norm", graph::LayerNorm{.axis = axis},
                            {x, constant(g, "scale", {channels}, 1.0F, 0.5F), constant(g, "shift", {channels}, 0.0F, 0.5F)}));
    for (const char* text : {"NCHW", "NCHW8c", "NCHW16c", "NHWC", "NWCH", "NCHW4c"}) {
      CAPTURE(text);
      CHECK(run_in_layout(g, "norm", Layout::parse(text)) == kernels::StepKind::kernel);
    }
    // A layout splitting the normalized axis into blocks apart has no kernel: the reference runs it.
    const Layout split = Layout::parse(axis == 3 ? "NCWH4w" : "NCHW2h");
    CHECK(run_in_layout(g, "norm", split) == kernels::StepKind::fallback);
  }
}

TEST_CASE("a constant broadcast to a blocked output is laid out like it and read by the kernel") {
  // Swin's last stage: scores [1, 24, 7, 7] + the relative position bias [24, 7, 7], and a
  // window mask [1, 1, 7, 7] broadcast along the channels.
  for (const graph::Shape& bias : {graph::Shape{24, 7, 7}, graph::Shape{1, 1, 7, 7}}) {
    CAPTURE(bias);
    graph::Graph g("blocked_bias");
    const graph::ValueId x = g.add_input("x", {{1, 24, 7, 7}});
    g.add_output(g.add_node("bias", graph::Add{}, {x, constant(g, "table", bias, -1.0F, 1.0F)}));
    for (const char* text : {"NCHW", "NCHW8c", "NCHW4c"}) {
      CAPTURE(text);
      CHECK(run_in_layout(g, "bias", Layout::parse(text)) == kernels::StepKind::kernel);
    }
  }
}

TEST_CASE("slices along an axis the layout keeps whole are copies of runs, with step 1 or a step dividing the extent") {
  // [1, 16, 6, 20] as Swin's [N, H, W, C]: its cyclic shift cuts H or W (step 1); its patch
  // merging keeps every other row and column (step 2, from 0 or 1). A step-1 slice of an
  // axis only the batch of 1 precedes in memory is one run of the input: a view.
  struct Case {
    graph::Slice slice;
    std::vector<const char*> kernel_layouts;  ///< keep the axis whole
    const char* split_layout;                 ///< blocks the axis: the reference runs it
    std::vector<const char*> view_layouts = {};  ///< keep the kept range in one run
  };
  const std::vector<Case> cases{
      {{.axis = 2, .start = 3, .end = 6, .step = 1}, {"NCHW8c", "NCWH"}, "NCHW3h", {"NCHW16c", "NHWC"}},
      {{.axis = 3, .start = 5, .end = 15, .step = 1}, {"NCHW8c", "NHWC"}, "NCWH5w", {"NWCH"}},
      {{.axis = 1, .start = 0, .end = 16, .step = 2}, {"NCHW", "NHWC", "NWHC"}, "NCHW8c"},
      {{.axis = 2, .start = 1, .end = 6, .step = 2}, {"NCHW", "NCHW8c", "NHWC"}, "NCHW3h"},
      {{.axis = 3, .start = 1, .end = 20, .step = 4}, {"NCHW", "NCHW4c", "NWCH"}, "NCWH5w"},
  };
  for (const Case& t : cases) {
    CAPTURE(t.slice.axis);
    CAPTURE(t.slice.step);
    graph::Graph g("token_slice");
    g.add_output(g.add_node("cut", t.slice, {g.add_input("x", {{1, 16, 6, 20}})}));
    for (const char* text : t.kernel_layouts) {
      CAPTURE(text);
      CHECK(run_in_layout(g, "cut", Layout::parse(text)) == kernels::StepKind::kernel);
    }
    for (const char* text : t.view_layouts) {
      CAPTURE(text);
      CHECK(run_in_layout(g, "cut", Layout::parse(text)) == std::nullopt);
    }
    CHECK(run_in_layout(g, "cut", Layout::parse(t.split_layout)) == kernels::StepKind::fallback);
  }
}

TEST_CASE("concats along an axis one layout of all keeps whole are copies of runs") {
  // Swin's cyclic shift joins [1, 16, 2, 20] and [1, 16, 4, 20] along H (and W) in NCHW8c;
  // the parts here are slices of the one input, so every layout meets the reference.
  for (const int64_t axis : {2, 3}) {
    CAPTURE(axis);
    graph::Graph g("token_roll");
    const graph::ValueId x = g.add_input("x", {{1, 16, 6, 20}});
    const int64_t cut = axis == 2 ? 2 : 15;
    const int64_t extent = axis == 2 ? 6 : 20;
    const auto tail = g.add_node("tail", graph::Slice{.axis = axis, .start = cut, .end = extent, .step = 1}, {x});
    const auto head = g.add_node("head", graph::Slice{.axis = axis, .start = 0, .end = cut, .step = 1}, {x});
    g.add_output(g.add_node("roll", graph::Concat{axis}, {tail, head}));
    for (const std::string text : {"NCHW8c", "NCHW16c", "NHWC"}) {
      CAPTURE(text);
      const Layout layout = Layout::parse(text);
      kernels::NetworkSchedule schedule = kernels::default_network_schedule(g);
      for (kernels::NodeSchedule& node : schedule.nodes) {
        for (Layout& input : node.inputs) input = layout;
        node.output = layout;
      }
      auto network = kernels::CompiledNetwork::compile(g, schedule);
      const std::vector<HostTensor> inputs{kernels::testing::random_tensor({1, 16, 6, 20}, 9)};
      const std::vector<HostTensor> expected = kernels::reference::run_graph(g, inputs);
      const std::vector<HostTensor> actual = network.run(inputs);
      REQUIRE(actual.size() == 1);
      CHECK(actual[0].data == expected[0].data);  // copies are exact
      for (const kernels::NetworkStep& step : network.steps()) {
        CAPTURE(step.name);
        CHECK(step.kind != kernels::StepKind::fallback);
      }
    }
  }
}
