// What the flexible-op timing step runs, not how fast: the concat it times copies only the
// inputs a compiled network cannot place in their slice of the output; each elementwise
// operator runs the kernel the network would, or a stand-in that says so; the analytic model
// agrees on which operators are layout-flexible and in which blocks (a channel slice: those
// dividing its start); each distinct kernel is timed once in every offered block, and the
// measured source only looks the times up.

#include "layoutopt/costs/flexible_op_timing.h"

#include <doctest/doctest.h>

#include <sstream>

#include "layoutopt/costs/flexible_ops.h"
#include "layoutopt/costs/transform_enumeration.h"
#include "layoutopt/planning/analytic_cost_model.h"
#include "layoutopt/planning/flexible_blocks.h"
#include "plan_fixtures.h"
#include "tuning_fixtures.h"

using namespace layoutopt;

namespace {

/// Every 4-D activation tensor of `graph` offered in NCHW[block]c (and NCHW).
costs::ShapeLayouts offered_in(const graph::Graph& graph, int64_t block) {
  costs::ShapeLayouts offered;
  for (const graph::Value& value : graph.values())
    if (value.type.shape.size() == 4) offered[value.type.shape].insert(layout::Layout::channel_blocked(4, block));
  return offered;
}

/// The kernel node `name` runs in `block`, checked to be timed by the step.
planning::FlexibleKernel timed_kernel(const graph::Graph& g, const costs::FlexibleOpTable& table,
                                      const std::string& name, int64_t block) {
  const planning::FlexibleKernel kernel = costs::flexible_op(g, *g.find_node(name), block).kernel;
  REQUIRE(table.contains(kernel));
  CHECK(table.at(kernel) >= 0.0);
  return kernel;
}

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
  const costs::FlexibleOpTable table = costs::time_flexible_ops(g, offered_in(g, block), testing::fast_policy(), nullptr);
  return timed_kernel(g, table, "join", block).schedule.at("copies");
}

}  // namespace

TEST_CASE("a batch-1 concat is timed without copies, a batch-2 one with all of them") {
  CHECK(timed_copies(1, 16) == 0);
  CHECK(timed_copies(1, 1) == 0);
  CHECK(timed_copies(2, 16) == 3);
}

namespace {

/// The elementwise operators on a [1, 16, 6, 6] tensor, with activation, per-channel constant
/// and unsupported (spatial) constant operands, a channel shuffle, a resize, and a layout-rigid
/// operator.
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

TEST_CASE("elementwise operators, channel shuffle and resize are layout-flexible, to the analytic model too") {
  const graph::Graph g = elementwise_operators();
  const planning::AnalyticCostModel model;
  for (size_t n = 0; n < g.nodes().size(); ++n) {
    const auto id = static_cast<graph::NodeId>(n);
    CAPTURE(g.node(id).name);
    const bool rigid = g.node(id).name == "flatten";
    CHECK(costs::is_layout_flexible(g, id) == !rigid);
    CHECK((model.candidates(g, id).front().label != "canonical") == !rigid);
  }
}

TEST_CASE("elementwise operators and channel shuffle are timed on their own kernels, per-channel constants too") {
  const graph::Graph g = elementwise_operators();
  const costs::FlexibleOpTable table = costs::time_flexible_ops(g, offered_in(g, 8), testing::fast_policy(), nullptr);
  const auto timed = [&](const std::string& name) { return timed_kernel(g, table, name, 8); };
  CHECK(timed("hardsigmoid").desc == "hard_sigmoid0.2_0.5_n1_c16_h6_w6_x8");
  CHECK(timed("leaky").desc == "leaky_relu0.01_n1_c16_h6_w6_x8");
  CHECK(timed("silu").desc == "silu_n1_c16_h6_w6_x8");
  CHECK(timed("prelu").desc == "prelu_channel_n1_c16_h6_w6_x8");
  CHECK(timed("sub_left").desc == "sub_swapped_channel_n1_c16_h6_w6_x8");
  CHECK(timed("max").kernel == "elementwise_binary");
  CHECK(timed("shuffle").desc == "channel_shuffle_g4_n1_c16_h6_w6_x8");
  CHECK(timed("resize").kernel == "resize");
  CHECK(timed("resize").stand_in_for.empty());
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
    CHECK(costs::is_layout_flexible(g, id) == !rigid);
    CHECK((model.candidates(g, id).front().label != "canonical") == !rigid);
  }
}

TEST_CASE("a channel slice is offered only in blocks dividing its start and length, timed on its kernel") {
  const graph::Graph g = slices();
  CHECK(planning::flexible_channel_bound(g, *g.find_node("second_half")) == 8);
  CHECK(planning::flexible_channel_bound(g, *g.find_node("mid_block")) == 4);
  CHECK(analytic_blocks(g, "second_half") == std::vector<int64_t>{1, 2, 4, 8});
  CHECK(analytic_blocks(g, "mid_block") == std::vector<int64_t>{1, 2, 4});  // 8 would straddle its start
  const costs::FlexibleOpTable table = costs::time_flexible_ops(g, offered_in(g, 8), testing::fast_policy(), nullptr);
  CHECK(timed_kernel(g, table, "second_half", 8).desc == "channel_slice_8_16_n1_c16_h6_w6_x8");
  CHECK(costs::offered_blocks(g, *g.find_node("mid_block"), offered_in(g, 8)) == std::vector<int64_t>{1});
}

TEST_CASE("a batch-1 channel slice is a view and costs nothing; at batch 2 its copies are timed") {
  for (const int64_t batch : {1, 2}) {
    CAPTURE(batch);
    graph::Graph g("split");
    g.add_output(g.add_node("second_half", graph::Slice{.axis = 1, .start = 8, .end = 16},
                            {g.add_input("x", {{batch, 16, 6, 6}})}));
    const costs::FlexibleOpTable table = costs::time_flexible_ops(g, offered_in(g, 8), testing::fast_policy(), nullptr);
    const planning::FlexibleKernel kernel = timed_kernel(g, table, "second_half", 8);
    CHECK((table.at(kernel) == 0.0) == (batch == 1));
    CHECK((costs::flexible_op(g, *g.find_node("second_half"), 8).label == "NCHW8c slice view") == (batch == 1));
  }
}

TEST_CASE("a concat copies an input that is a view of another tensor, and is priced so") {
  // ShuffleNet's unit: one half of a split goes straight into the concat (a view of the
  // split tensor), the other through a relu, which writes into the concat in place.
  for (const bool direct : {true, false}) {
    CAPTURE(direct);
    graph::Graph g("split_join");
    const auto mixed = g.add_node("relu", graph::Relu{}, {g.add_input("x", {{1, 16, 6, 6}})});
    auto left = g.add_node("left", graph::Slice{.axis = 1, .start = 0, .end = 8}, {mixed});
    if (!direct) left = g.add_node("left_relu", graph::Relu{}, {left});
    const auto right = g.add_node("right", graph::Slice{.axis = 1, .start = 8, .end = 16}, {mixed});
    const auto branch = g.add_node("right_relu", graph::Relu{}, {right});
    g.add_output(g.add_node("join", graph::Concat{.axis = 1}, {left, branch}));
    CHECK(costs::flexible_op(g, *g.find_node("join"), 8).kernel.schedule.at("copies") == (direct ? 1 : 0));
  }
}

TEST_CASE("each distinct kernel is timed once in every offered block, with progress as transforms show it") {
  const graph::Graph g = three_branch_concat(1);
  std::ostringstream out;
  timing::ProgressReporter progress(out, {.mode = timing::ProgressMode::lines, .line_interval_s = 0});
  const costs::FlexibleOpTable table = costs::time_flexible_ops(g, offered_in(g, 8), testing::fast_policy(), &progress);
  // Relus a and b run one kernel; it and the concat are timed in NCHW and NCHW8c.
  CHECK(table.size() == 4);
  CHECK(timed_kernel(g, table, "a", 8) == timed_kernel(g, table, "b", 8));
  CHECK(timed_kernel(g, table, "join", 1) != timed_kernel(g, table, "join", 8));
  CHECK(out.str().find("[Flexible op 4/4] NCHW8c concat copies 0: ") != std::string::npos);
}

TEST_CASE("the measured source looks flexible ops up and names a node the table lacks") {
  using namespace layoutopt::testing;
  const graph::Graph g = tiny_graph();
  const ScratchFile records("records.jsonl");
  write_records(records.path(), tuning::extract_tasks(g));
  const std::vector<tuning::MeasureRecord> log = tuning::load_record_log(records.path()).records;
  const costs::TransformTable table = synthetic_table(g);
  const MeasuredCosts measured(g, log, table, records.path());
  const graph::NodeId pool = *g.find_node("pool1");
  for (const planning::NodeCandidate& candidate : measured.source.candidates(g, pool))
    CHECK(candidate.ms == measured.flexible.at(std::get<planning::FlexibleKernel>(candidate.kernel)));

  const costs::FlexibleOpTable empty;
  const costs::MeasuredCostSource untimed(g, log, {.transforms = table, .offered = measured.offered, .flexible = empty},
                                          fast_options(records.path()));
  CHECK_THROWS_WITH_AS((void)untimed.candidates(g, pool), doctest::Contains("node 'pool1'"), std::logic_error);
}

TEST_CASE("layer norm over the channels is layout-flexible and timed on its kernel; over another axis it is rigid") {
  graph::Graph g("norms");
  const graph::ValueId x = g.add_input("x", {{1, 16, 6, 6}});
  for (const int64_t axis : {1, 3}) {
    const int64_t extent = g.value(x).type.shape[static_cast<size_t>(axis)];
    const std::string name = "norm" + std::to_string(axis);
    const graph::ValueId scale = g.add_parameter(name + ".scale", {extent}, graph::WeightData::seeded({7, 1.0F, 0.1F}, extent));
    const graph::ValueId shift = g.add_parameter(name + ".shift", {extent}, graph::WeightData::seeded({8, 0.0F, 0.1F}, extent));
    g.add_output(g.add_node(name, graph::LayerNorm{.axis = axis}, {x, scale, shift}));
  }
  const planning::AnalyticCostModel model;
  const graph::NodeId channels = *g.find_node("norm1"), width = *g.find_node("norm3");
  CHECK(costs::is_layout_flexible(g, channels));
  CHECK(model.candidates(g, channels).front().label != "canonical");
  CHECK_FALSE(costs::is_layout_flexible(g, width));
  CHECK(model.candidates(g, width).front().label == "canonical");
  const costs::FlexibleOpTable table = costs::time_flexible_ops(g, offered_in(g, 8), testing::fast_policy(), nullptr);
  const planning::FlexibleKernel kernel = timed_kernel(g, table, "norm1", 8);
  CHECK(kernel.kernel == "layer_norm");
  CHECK(kernel.stand_in_for.empty());
  CHECK(table.at(kernel) > 0.0);
}

TEST_CASE("a token tensor's norm, softmax, elementwise ops and slices are timed on their canonical kernels") {
  graph::Graph g("tokens");
  const graph::ValueId x = g.add_input("x", {{1, 5, 24}});
  const graph::ValueId scale = g.add_parameter("scale", {24}, graph::WeightData::seeded({7, 1.0F, 0.1F}, 24));
  const graph::ValueId shift = g.add_parameter("shift", {24}, graph::WeightData::seeded({8, 0.0F, 0.1F}, 24));
  const graph::ValueId root = g.add_parameter("root", {}, graph::WeightData::seeded({9, 2.0F, 0.0F}, 1));
  const graph::ValueId norm = g.add_node("norm", graph::LayerNorm{.axis = 2}, {x, scale, shift});
  const graph::ValueId scaled = g.add_node("scaled", graph::Div{}, {norm, root});
  const graph::ValueId gelu = g.add_node("gelu", graph::Gelu{}, {scaled});
  const graph::ValueId residual = g.add_node("residual", graph::Add{}, {x, gelu});
  const graph::ValueId softmax = g.add_node("softmax", graph::Softmax{.axis = -1}, {residual});
  g.add_output(g.add_node("query", graph::Slice{.axis = 2, .start = 0, .end = 8}, {softmax}));
  g.add_output(g.add_node("flat", graph::Reshape{{1, 120}}, {softmax}));
  const costs::FlexibleOpTable table = costs::time_flexible_ops(g, {}, testing::fast_policy(), nullptr);
  for (const std::string name : {"norm", "scaled", "gelu", "residual", "softmax", "query"}) {
    CAPTURE(name);
    const graph::NodeId id = *g.find_node(name);
    CHECK_FALSE(costs::is_layout_flexible(g, id));
    const std::optional<costs::FlexibleOp> op = costs::canonical_op(g, id);
    REQUIRE(op.has_value());
    REQUIRE(table.contains(op->kernel));
    CHECK(table.at(op->kernel) > 0.0);
  }
  CHECK(costs::canonical_op(g, *g.find_node("norm"))->kernel.kernel == "layer_norm");
  CHECK(costs::canonical_op(g, *g.find_node("scaled"))->kernel.desc == "div_channel_n1_c1_h1_w120_x1");
  CHECK_FALSE(costs::canonical_op(g, *g.find_node("flat")).has_value());  // a view: nothing to time
}
