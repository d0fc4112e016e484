// What the flexible-op timer runs, not how fast: the concat it times copies only the inputs a
// compiled network cannot place in their slice of the output; each elementwise operator runs
// the kernel the network would, or a stand-in that says so; and the analytic model agrees on
// which operators are layout-flexible and in which blocks (a channel slice: those dividing
// its start).

#include "layoutopt/costs/flexible_op_timing.h"

#include <doctest/doctest.h>


#include "layoutopt/planning/analytic_cost_model.h"
#include "layoutopt/timing/cost_policy.h"
#include "layoutopt/planning/flexible_blocks.h"

using namespace layoutopt;

namespace {

graph::Graph three_branch_concat(int64_t batch) {
  graph::Graph g("concat");
  const graph::ValueId x = g.add_input("x", {{batch, 16, 6, 6}});
  const graph::ValueId a = g.add_node("a", graph::Relu{}, {x});
  const graph::ValueId b = g.add_node("b", graph::Relu{}, {x});
  g.add_output(g.add_node("join", graph::Concat{}, {x, a, b}));
  return g;
}

int64_t timed_copies(int64_t batch, int64_t block) {
  const graph::Graph g = three_branch_concat(batch);
  const costs::FlexibleOpTimer timer(timing::cost_policy(1, 1.0));
  const costs::FlexibleOpCost cost = timer.cost(g, *g.find_node("join"), block);
  CHECK(cost.ms >= 0.0);
  return cost.kernel.schedule.at("copies");
}

}  // namespace

TEST_CASE("a batch-1 concat is timed without copies, a batch-2 one with all of them") {
  CHECK(timed_copies(1, 16) == 0);
  CHECK(timed_copies(1, 1) == 0);
  CHECK(timed_copies(2, 16) == 3);
}

namespace {

/// The elementwise operators on a [1, 16, 6, 6] tensor, with activation, per-channel constant
/// and unsupported (spatial) constant operands, a channel shuffle, and layout-rigid operators.
graph::Graph elementwise_operators() {
  graph::Graph g("elementwise");
  const graph::ValueId x = g.add_input("x", {{1, 16, 6, 6}});
  const graph::ValueId per_channel = g.add_parameter("c", {16, 1, 1}, graph::WeightData::seeded({3, 1.5f, 0.5f}, 16));
  const graph::ValueId spatial = g.add_parameter("p", {1, 1, 6, 6}, graph::WeightData::seeded({4}, 36));
  std::vector<graph::ValueId> outputs{
      g.add_node("tanh", graph::Tanh{}, {x}),
      g.add_node("hardsigmoid", graph::HardSigmoid{}, {x}),
      g.add_node("hardswish", graph::HardSwish{}, {x}),
      g.add_node("silu", graph::Silu{}, {x}),
      g.add_node("leaky", graph::LeakyRelu{}, {x}),
      g.add_node("prelu", graph::PRelu{}, {x, per_channel}),
      g.add_node("sub_left", graph::Sub{}, {per_channel, x}),
      g.add_node("div", graph::Div{}, {x, per_channel}),
      g.add_node("max", graph::Max{}, {x, x}),
      g.add_node("min_spatial", graph::Min{}, {x, spatial}),
      g.add_node("clip", graph::Clip{-1.0f, 1.0f}, {x}),
      g.add_node("shuffle", graph::ChannelShuffle{.groups = 4}, {x}),
  };
  outputs.push_back(g.add_node("flatten", graph::Flatten{}, {outputs[0]}));
  outputs.push_back(g.add_node("resize", graph::Resize{.size = {12, 12}, .scale_h = 2.0, .scale_w = 2.0}, {x}));
  for (graph::ValueId output : outputs) g.add_output(output);
  return g;
}

}  // namespace

TEST_CASE("elementwise operators and channel shuffle are layout-flexible, to the analytic model too") {
  const graph::Graph g = elementwise_operators();
  const planning::AnalyticCostModel model;
  for (size_t n = 0; n < g.nodes().size(); ++n) {
    const auto id = static_cast<graph::NodeId>(n);
    CAPTURE(g.node(id).name);
    const bool rigid = g.node(id).name == "flatten" || g.node(id).name == "resize";
    CHECK(costs::FlexibleOpTimer::handles(g, id) == !rigid);
    CHECK((model.candidates(g, id).front().label != "canonical") == !rigid);
  }
}

TEST_CASE("elementwise operators and channel shuffle are timed on their own kernels, per-channel constants too") {
  const graph::Graph g = elementwise_operators();
  const costs::FlexibleOpTimer timer(timing::cost_policy(1, 1.0));
  const auto timed = [&](const std::string& name) {
    const costs::FlexibleOpCost cost = timer.cost(g, *g.find_node(name), 8);
    CHECK(cost.ms >= 0.0);
    return cost.kernel;
  };
  CHECK(timed("hardsigmoid").desc == "hard_sigmoid0.2_0.5_n1_c16_h6_w6_x8");
  CHECK(timed("leaky").desc == "leaky_relu0.01_n1_c16_h6_w6_x8");
  CHECK(timed("silu").desc == "silu_n1_c16_h6_w6_x8");
  CHECK(timed("prelu").desc == "prelu_channel_n1_c16_h6_w6_x8");
  CHECK(timed("sub_left").desc == "sub_swapped_channel_n1_c16_h6_w6_x8");
  CHECK(timed("max").kernel == "elementwise_binary");
  CHECK(timed("shuffle").desc == "channel_shuffle_g4_n1_c16_h6_w6_x8");
  // What no kernel computes is timed on a stand-in that streams the output once.
  CHECK(timed("min_spatial").stand_in_for == "min");
  CHECK(timed("clip").stand_in_for == "clip");
}

namespace {

/// Channel slices of a [1, 16, 6, 6] tensor: ShuffleNet's halves, a range starting mid-block
/// for blocks of 8, and slices that are not channel splits (step 2, along H).
graph::Graph slices() {
  graph::Graph g("slices");
  const graph::ValueId x = g.add_input("x", {{1, 16, 6, 6}});
  for (const auto& [name, slice] : std::vector<std::pair<std::string, graph::Slice>>{
           {"first_half", {.axis = 1, .start = 0, .end = 8}},
           {"second_half", {.axis = 1, .start = 8, .end = 16}},
           {"mid_block", {.axis = 1, .start = 4, .end = 12}},
           {"strided", {.axis = 1, .start = 0, .end = 16, .step = 2}},
           {"rows", {.axis = 2, .start = 0, .end = 4}}})
    g.add_output(g.add_node(name, slice, {x}));
  return g;
}

std::vector<int64_t> analytic_blocks(const graph::Graph& g, const std::string& name) {
  std::vector<int64_t> blocks;
  for (const planning::NodeCandidate& candidate : planning::AnalyticCostModel().candidates(g, *g.find_node(name)))
    blocks.push_back(candidate.output.block_of('C'));
  return blocks;
}

}  // namespace

TEST_CASE("step-1 channel slices are layout-flexible, to the analytic model too") {
  const graph::Graph g = slices();
  const planning::AnalyticCostModel model;
  for (size_t n = 0; n < g.nodes().size(); ++n) {
    const auto id = static_cast<graph::NodeId>(n);
    CAPTURE(g.node(id).name);
    const bool rigid = g.node(id).name == "strided" || g.node(id).name == "rows";
    CHECK(costs::FlexibleOpTimer::handles(g, id) == !rigid);
    CHECK((model.candidates(g, id).front().label != "canonical") == !rigid);
  }
}

TEST_CASE("a channel slice is offered only in blocks dividing its start and length, timed on its kernel") {
  const graph::Graph g = slices();
  CHECK(planning::flexible_channel_bound(g, *g.find_node("second_half")) == 8);
  CHECK(planning::flexible_channel_bound(g, *g.find_node("mid_block")) == 4);
  CHECK(analytic_blocks(g, "second_half") == std::vector<int64_t>{1, 2, 4, 8});
  CHECK(analytic_blocks(g, "mid_block") == std::vector<int64_t>{1, 2, 4});  // 8 would straddle its start
  const costs::FlexibleOpTimer timer(timing::cost_policy(1, 1.0));
  const costs::FlexibleOpCost cost = timer.cost(g, *g.find_node("second_half"), 8);
  CHECK(cost.ms >= 0.0);
  CHECK(cost.kernel.desc == "channel_slice_8_16_n1_c16_h6_w6_x8");
}
