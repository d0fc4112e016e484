// The compute limit counts a network's FLOPs as its plan runs them: direct convs and dense at
// 2 per multiply-add, a Winograd conv at its batched product, everything at the given peak.

#include "layoutopt/evaluation/compute_limit.h"

#include <doctest/doctest.h>

#include "layoutopt/graph/workloads.h"
#include "layoutopt/kernels/lowering.h"
#include "layoutopt/kernels/tunable_op.h"
#include "layoutopt/kernels/winograd_conv2d.h"
#include "plan_fixtures.h"

using namespace layoutopt;

namespace {

timing::PeakFlops peak_of(double gflops, int threads) {
  timing::PeakFlops peak;
  peak.gflops = gflops;
  peak.threads = threads;
  return peak;
}

/// A plan of `graph` whose conv1 runs Winograd F(2x2, 3x3) and every other node no kernel in
/// particular.
planning::Plan plan_with_winograd_conv1(const graph::Graph& graph) {
  planning::Plan plan;
  for (const graph::Node& node : graph.nodes()) plan.nodes.push_back({.name = node.name});
  const graph::NodeId conv1 = *graph.find_node("conv1");
  const kernels::TunableOp winograd = kernels::TunableOp::winograd_conv2d(kernels::conv2d_desc(graph, conv1));
  const std::map<std::string, int64_t> knobs{{"tile_m", 2}, {"tile_ic", 16}, {"tile_oc", 16}, {"tile_t", 4}, {"oc_inner", 0}};
  plan.nodes[static_cast<size_t>(conv1)].kernel = planning::TunedKernel{
      .task = "conv2d_NCHWc_winograd.x86", .family = "winograd_conv2d", .config_index = *winograd.index_of(knobs), .knobs = knobs};
  return plan;
}

}  // namespace

TEST_CASE("without a plan, a network whose default runs every conv directly counts its direct FLOPs") {
  // tiny_graph's conv1 has 4 x 4 tiles of 2 x 2, too few for the default's Winograd.
  const graph::Graph g = testing::tiny_graph();
  REQUIRE_FALSE(kernels::winograd_by_default(kernels::conv2d_desc(g, *g.find_node("conv1"))));
  const evaluation::ComputeLimit limit = evaluation::compute_limit(g, nullptr, peak_of(100.0, 2));
  CHECK(limit.direct_gflop == doctest::Approx(2.0 * static_cast<double>(graph::mac_count(g)) / 1e9));
  CHECK(limit.executed_gflop == limit.direct_gflop);
  CHECK(limit.winograd_convs == 0);
  CHECK(limit.threads == 2);
  CHECK(limit.limit_ms() == doctest::Approx(1e3 * limit.direct_gflop / 100.0));
  CHECK(limit.fraction_of(4 * limit.limit_ms()) == doctest::Approx(0.25));
  CHECK(limit.summary().find("(direct)") != std::string::npos);
}

TEST_CASE("a conv the plan runs as Winograd counts its batched product, alpha^2 x C x K per tile") {
  const graph::Graph g = testing::tiny_graph();
  const planning::Plan plan = plan_with_winograd_conv1(g);
  const evaluation::ComputeLimit limit = evaluation::compute_limit(g, &plan, peak_of(100.0, 1));
  // conv1: 16 -> 32 channels, 3x3, padding 1 on 8x8. F(2x2): alpha 4, 4 x 4 tiles of 2x2.
  const double conv1_direct = 2.0 * 32 * 16 * 9 * 8 * 8;
  const double conv1_product = 2.0 * (4 * 4) * 16 * 32 * (4 * 4);
  CHECK(limit.winograd_convs == 1);
  CHECK(limit.executed_gflop == doctest::Approx(limit.direct_gflop - (conv1_direct - conv1_product) / 1e9));
  CHECK(limit.executed_gflop < limit.direct_gflop);
  CHECK(limit.limit_ms() == doctest::Approx(1e3 * limit.executed_gflop / 100.0));
  CHECK(limit.summary().find("Winograd on 1 of the convs") != std::string::npos);
}

TEST_CASE("a conv the plan runs as Winograd reads its transformed weights, alpha^2 per 3 x 3; others none") {
  const graph::Graph g = testing::tiny_graph();
  const planning::Plan plan = plan_with_winograd_conv1(g);
  // conv1: 16 -> 32 channels; F(2x2) transforms each 3 x 3 filter into 4 x 4.
  CHECK(evaluation::winograd_weight_floats(g, &plan, *g.find_node("conv1")) == 32 * 16 * 4 * 4);
  for (const graph::Node& node : g.nodes())
    if (node.name != "conv1") CHECK_FALSE(evaluation::winograd_weight_floats(g, &plan, *g.find_node(node.name)));
}

TEST_CASE("without a plan, a conv the untuned default runs as Winograd counts the default's batched product") {
  // A 64 -> 64 3x3 conv on 56 x 56: 196 tiles of 4 x 4, so the default runs F(4x4, 3x3); a
  // limit of its direct FLOPs would be beaten 4x by the default itself.
  graph::Graph g("winograd_default");
  const auto x = g.add_input("x", {{1, 64, 56, 56}});
  const auto w = g.add_parameter("conv.weight", {64, 64, 3, 3}, graph::WeightData::seeded({1}, 64 * 64 * 9));
  g.add_output(g.add_node("conv", graph::Conv2d{.kernel = {3, 3}, .pads = {1, 1, 1, 1}}, {x, w}));
  REQUIRE(kernels::winograd_by_default(kernels::conv2d_desc(g, *g.find_node("conv"))));
  const evaluation::ComputeLimit limit = evaluation::compute_limit(g, nullptr, peak_of(100.0, 2));
  const double direct = 2.0 * 64 * 64 * 9 * 56 * 56;
  const double product = 2.0 * (6 * 6) * 64 * 64 * (14 * 14);  // alpha 6, 14 x 14 tiles
  CHECK(limit.direct_gflop == doctest::Approx(direct / 1e9));
  CHECK(limit.executed_gflop == doctest::Approx(product / 1e9));
  CHECK(limit.winograd_convs == 1);
  CHECK(limit.summary().find("as run (") != std::string::npos);
}
