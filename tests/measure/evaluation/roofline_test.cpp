// The roofline holds each step to whichever binds, its FLOPs at the peak or its bytes at the
// bandwidth, and adds the steps up. The expected figures are counted here by hand from the
// layers' shapes, not read from the code under test.

#include "layoutopt/evaluation/roofline.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "layoutopt/evaluation/compute_limit.h"

using namespace layoutopt;

namespace {

constexpr double kPeakGflops = 100.0;
constexpr double kBandwidthGbps = 10.0;

timing::PeakFlops peak() {
  timing::PeakFlops value;
  value.gflops = kPeakGflops;
  value.threads = 2;
  return value;
}

timing::MemoryBandwidth bandwidth() {
  timing::MemoryBandwidth value;
  value.read_gbps = kBandwidthGbps;
  value.threads = 2;
  return value;
}

graph::WeightData seeded(int64_t count) { return graph::WeightData::seeded({1}, count); }

constexpr int64_t kDenseWidth = 2048;  // a 2048 x 2048 fp32 dense: 16 MiB of weights
constexpr int64_t kConvChannels = 64;  // a 64 -> 64 3x3 conv on 56 x 56
constexpr int64_t kConvSide = 56;

/// x -> flatten -> dense(2048 -> 2048): 2 FLOPs per weight, each weight read once.
graph::ValueId add_huge_dense(graph::Graph& g, graph::ValueId x) {
  const auto flat = g.add_node("flatten", graph::Flatten{}, {x});
  const auto w = g.add_parameter("fc.weight", {kDenseWidth, kDenseWidth}, seeded(kDenseWidth * kDenseWidth));
  return g.add_node("fc", graph::Dense{}, {flat, w});
}

graph::ValueId add_conv(graph::Graph& g, graph::ValueId x, const std::string& name) {
  const auto w = g.add_parameter(name + ".weight", {kConvChannels, kConvChannels, 3, 3}, seeded(kConvChannels * kConvChannels * 9));
  return g.add_node(name, graph::Conv2d{.kernel = {3, 3}, .pads = {1, 1, 1, 1}}, {x, w});
}

// Hand counts at kPeakGflops and kBandwidthGbps, in ms.
constexpr double kDenseComputeMs = 2.0 * kDenseWidth * kDenseWidth / 1e9 / kPeakGflops * 1e3;
constexpr double kDenseMemoryMs = 4.0 * (kDenseWidth * kDenseWidth + 2 * kDenseWidth) / 1e9 / kBandwidthGbps * 1e3;
// Without a plan the conv runs as the untuned default runs it: Winograd F(4x4, 3x3), a
// product of 6 x 6 x C x K per tile of 4 x 4 (14 x 14 tiles on 56 x 56).
constexpr double kConvComputeMs =
    2.0 * 36 * kConvChannels * kConvChannels * (kConvSide / 4) * (kConvSide / 4) / 1e9 / kPeakGflops * 1e3;
// It reads its transformed weights, 6 x 6 per 3 x 3 of the graph's.
constexpr double kConvMemoryMs =
    4.0 * (2 * kConvChannels * kConvSide * kConvSide + kConvChannels * kConvChannels * 36) / 1e9 / kBandwidthGbps * 1e3;

}  // namespace

TEST_CASE("a huge dense layer is memory-bound: its roofline is its weights at the bandwidth, far above its compute limit") {
  graph::Graph g("dense");
  g.add_output(add_huge_dense(g, g.add_input("x", {{1, kDenseWidth, 1, 1}})));
  const evaluation::Roofline roof = evaluation::roofline(g, nullptr, peak(), bandwidth());
  const evaluation::ComputeLimit limit = evaluation::compute_limit(g, nullptr, peak());
  REQUIRE(roof.steps.size() == 1);  // the flatten is a view
  CHECK(roof.steps[0].type == "dense");
  CHECK(roof.steps[0].memory_bound());
  CHECK(roof.floor_ms() == doctest::Approx(kDenseMemoryMs));
  CHECK(limit.limit_ms() == doctest::Approx(kDenseComputeMs));
  CHECK(roof.floor_ms() > 10 * limit.limit_ms());
  CHECK(roof.memory_bound_ms() == doctest::Approx(roof.floor_ms()));
  CHECK(roof.fraction_of(2 * roof.floor_ms()) == doctest::Approx(0.5));
}

TEST_CASE("a conv-heavy network's roofline is its compute limit") {
  graph::Graph g("convs");
  const auto x = g.add_input("x", {{1, kConvChannels, kConvSide, kConvSide}});
  g.add_output(add_conv(g, add_conv(g, x, "conv1"), "conv2"));
  const evaluation::Roofline roof = evaluation::roofline(g, nullptr, peak(), bandwidth());
  const evaluation::ComputeLimit limit = evaluation::compute_limit(g, nullptr, peak());
  CHECK(kConvComputeMs > kConvMemoryMs);
  REQUIRE(roof.steps.size() == 2);
  CHECK(roof.steps[0].memory_ms == doctest::Approx(kConvMemoryMs));
  CHECK(roof.floor_ms() == doctest::Approx(2 * kConvComputeMs));
  CHECK(roof.floor_ms() == doctest::Approx(limit.limit_ms()).epsilon(1e-9));
  CHECK(roof.memory_bound_ms() == 0);
}

TEST_CASE("the roofline sums each step at its own ceiling, not the larger of the network's two totals") {
  // conv (compute-bound) then the huge dense (memory-bound): the sum of per-step floors
  // exceeds both the total FLOPs at the peak and the total bytes at the bandwidth.
  graph::Graph g("mixed");
  const auto x = g.add_input("x", {{1, kConvChannels, kConvSide, kConvSide}});
  const auto conv = add_conv(g, x, "conv1");
  const auto pool = g.add_node("pool", graph::Pool2d{.kernel = {kConvSide, kConvSide}, .stride = {kConvSide, kConvSide}}, {conv});
  const auto wide = g.add_node("to_wide", graph::Reshape{.shape = {1, kConvChannels}}, {pool});
  const auto w_up = g.add_parameter("up.weight", {kDenseWidth, kConvChannels}, seeded(kDenseWidth * kConvChannels));
  const auto up = g.add_node("up", graph::Dense{}, {wide, w_up});
  const auto w = g.add_parameter("fc.weight", {kDenseWidth, kDenseWidth}, seeded(kDenseWidth * kDenseWidth));
  g.add_output(g.add_node("fc", graph::Dense{}, {up, w}));
  const evaluation::Roofline roof = evaluation::roofline(g, nullptr, peak(), bandwidth());
  double compute = 0, memory = 0;
  for (const evaluation::StepFloor& step : roof.steps) {
    compute += step.compute_ms;
    memory += step.memory_ms;
  }
  const double max_of_totals = std::max(compute, memory);
  CHECK(roof.floor_ms() > 1.05 * max_of_totals);
  double by_hand = 0;
  for (const evaluation::StepFloor& step : roof.steps) by_hand += std::max(step.compute_ms, step.memory_ms);
  CHECK(roof.floor_ms() == doctest::Approx(by_hand));
  CHECK(roof.steps.front().compute_ms == doctest::Approx(kConvComputeMs));
  CHECK(roof.steps.back().memory_ms == doctest::Approx(kDenseMemoryMs));
  const std::vector<evaluation::StepTypeFloor> types = roof.types();
  REQUIRE(types.size() == 3);  // the largest floor first: the two dense, the conv, the pool
  CHECK(types[0].type == "dense");
  CHECK(types[0].steps == 2);
  CHECK(types[0].memory_bound_ms == doctest::Approx(types[0].floor_ms));
  CHECK(types[1].type == "conv2d");
  CHECK(types[1].memory_bound_ms == 0);
}

TEST_CASE("per operator, a profiled run's node times stand beside the floors, depthwise convs apart") {
  // conv1 (dense 3x3) then a depthwise 3x3 over the same 64 channels: two operator rows, each
  // measured by its own node's time (node ids as the graph numbers them: 0 conv1, 1 dw).
  graph::Graph g("convs");
  const auto x = g.add_input("x", {{1, kConvChannels, kConvSide, kConvSide}});
  const auto conv = add_conv(g, x, "conv1");
  const auto w = g.add_parameter("dw.weight", {kConvChannels, 1, 3, 3}, seeded(kConvChannels * 9));
  g.add_output(g.add_node("dw", graph::Conv2d{.kernel = {3, 3}, .pads = {1, 1, 1, 1}, .groups = kConvChannels}, {conv, w}));
  const evaluation::Roofline roof = evaluation::roofline(g, nullptr, peak(), bandwidth());
  // The depthwise conv moves two activations and few weights for 1/64 of conv1's FLOPs.
  constexpr double kDepthwiseMemoryMs = 4.0 * (2 * kConvChannels * kConvSide * kConvSide + kConvChannels * 9) / 1e9 / kBandwidthGbps * 1e3;
  const std::vector<evaluation::StepTypeFloor> types = roof.types({{0, 4 * kConvComputeMs}, {1, 2 * kDepthwiseMemoryMs}});
  REQUIRE(types.size() == 2);
  CHECK(types[0].type == "conv2d");
  CHECK(types[0].measured_ms == doctest::Approx(4 * kConvComputeMs));
  CHECK(types[0].fraction() == doctest::Approx(0.25));
  CHECK(types[1].type == "depthwise_conv2d");
  CHECK(types[1].memory_bound_ms == doctest::Approx(kDepthwiseMemoryMs));
  CHECK(types[1].fraction() == doctest::Approx(0.5));
  CHECK(roof.types().front().fraction() == 0);  // no profile: nothing measured
}

TEST_CASE("the steps that lose most time to their floors come first, measured ones only") {
  // conv1 and conv2 (the same floor) and the depthwise conv: conv2 loses most, then dw, then
  // conv1; a step without a measured time is left out.
  graph::Graph g("convs");
  const auto x = g.add_input("x", {{1, kConvChannels, kConvSide, kConvSide}});
  const auto conv2 = add_conv(g, add_conv(g, x, "conv1"), "conv2");
  const auto w = g.add_parameter("dw.weight", {kConvChannels, 1, 3, 3}, seeded(kConvChannels * 9));
  g.add_output(g.add_node("dw", graph::Conv2d{.kernel = {3, 3}, .pads = {1, 1, 1, 1}, .groups = kConvChannels}, {conv2, w}));
  const evaluation::Roofline roof = evaluation::roofline(g, nullptr, peak(), bandwidth());
  REQUIRE(roof.steps.size() == 3);
  const double dw_floor = roof.steps[2].floor_ms();
  const std::map<graph::NodeId, double> measured{
      {0, 1.5 * kConvComputeMs}, {1, 3 * kConvComputeMs}, {2, dw_floor + kConvComputeMs}};
  const std::vector<evaluation::StepLoss> losses = roof.largest_losses(measured, 2);
  REQUIRE(losses.size() == 2);
  CHECK(losses[0].floor.node == 1);
  CHECK(losses[0].lost_ms() == doctest::Approx(2 * kConvComputeMs));
  CHECK(losses[0].fraction() == doctest::Approx(1.0 / 3.0));
  CHECK(losses[1].floor.node == 2);
  CHECK(losses[1].lost_ms() == doctest::Approx(kConvComputeMs));
  CHECK(roof.largest_losses({{0, 2 * kConvComputeMs}}, 8).size() == 1);
}
