#include "layoutopt/evaluation/step_profile.h"

#include <doctest/doctest.h>

#include <limits>
#include <map>
#include <vector>

using namespace layoutopt;

namespace {

kernels::NetworkStep node_step(const std::string& name, graph::NodeId node, graph::OpKind op, const std::string& kernel) {
  return {name, kernels::StepKind::kernel, "layoutopt_" + kernel + "_1", std::nullopt, node, op, kernel};
}

kernels::NetworkStep transform_step(const std::string& value, const layout::Layout& from, const layout::Layout& to) {
  return {value, kernels::StepKind::transform, "display text only", kernels::TransformedTensor{{1, 32, 8, 8}, from, to},
          std::nullopt, std::nullopt, {}};
}

}  // namespace

TEST_CASE("a profile joins each step to its plan price by node and by transformed tensor and layout") {
  const layout::Layout nchw16c = layout::Layout::channel_blocked(4, 16), nchw8c = layout::Layout::channel_blocked(4, 8);
  const std::vector<kernels::NetworkStep> steps{
      node_step("conv1", 0, graph::OpKind::conv2d, "conv2d"),
      transform_step("conv1_out", nchw16c, nchw8c),
      node_step("conv2", 1, graph::OpKind::conv2d, "winograd_conv2d"),
      transform_step("conv2_out", nchw8c, nchw16c),  // not in the plan: no price
  };
  planning::Plan plan;
  plan.nodes = {planning::PlanNode{.name = "conv1", .ms = 1.5}, planning::PlanNode{.name = "conv2", .ms = 2.5}};
  // Same tensor into another layout first: only the layout the step makes may match.
  plan.transforms = {planning::PlanTransform{"conv1_out", nchw16c, layout::Layout::nchw(), 9.0},
                     planning::PlanTransform{"conv1_out", nchw16c, nchw8c, 0.25}};
  const double unrecorded = std::numeric_limits<double>::quiet_NaN();
  const costs::NetworkProfile measured{{1.0, 0.5, 3.0, 0.125}, 4.625, {0.25, unrecorded, 0.5, unrecorded}};

  const evaluation::StepProfile profile = evaluation::profile_against_plan(steps, measured, &plan);
  REQUIRE(profile.steps.size() == 4);
  CHECK(profile.planned);
  CHECK(profile.steps[0].predicted_ms == 1.5);
  CHECK(profile.steps[1].predicted_ms == 0.25);
  CHECK(profile.steps[2].predicted_ms == 2.5);
  CHECK_FALSE(profile.steps[3].predicted_ms.has_value());
  CHECK(profile.steps[2].measured_ms == 3.0);

  const std::vector<evaluation::StepTypeTotals> types = profile.types();
  REQUIRE(types.size() == 3);  // by name: kernel conv2d, kernel winograd_conv2d, transform
  CHECK(types[0].type == "kernel conv2d");
  CHECK(types[1].type == "kernel winograd_conv2d");
  CHECK(types[2].type == "transform");
  CHECK(types[2].steps == 2);
  CHECK(types[2].measured_ms == doctest::Approx(0.625));
  CHECK(types[2].predicted_ms == doctest::Approx(0.25));

  const std::map<graph::NodeId, double> by_node = profile.node_ms();  // transforms run no node
  CHECK(by_node == std::map<graph::NodeId, double>{{0, 1.0}, {1, 3.0}});

  // The kernels' waiting adds up over the steps that record it; the transforms record none.
  CHECK(profile.steps[0].wait_ms == 0.25);
  CHECK_FALSE(profile.steps[1].wait_ms.has_value());
  const evaluation::ThreadWaiting waiting = profile.waiting();
  CHECK(waiting.wait_ms == doctest::Approx(0.75));
  CHECK(waiting.recorded_ms == doctest::Approx(4.0));
  CHECK(waiting.unrecorded_steps == 2);
}

TEST_CASE("without a plan no step has a price") {
  const std::vector<kernels::NetworkStep> steps{node_step("pool", 3, graph::OpKind::max_pool2d, "pool2d")};
  const evaluation::StepProfile profile = evaluation::profile_against_plan(steps, {{0.5}, 0.5}, nullptr);
  CHECK_FALSE(profile.planned);
  CHECK_FALSE(profile.steps.at(0).predicted_ms.has_value());
  CHECK(evaluation::step_type(steps[0]) == "kernel pool2d");
}

TEST_CASE("a node step without a kernel kind (a transpose run as a layout copy) is typed by its operator") {
  const kernels::NetworkStep transpose = node_step("permute", 4, graph::OpKind::transpose, "");
  CHECK(evaluation::step_type(transpose) == "kernel transpose");
  const kernels::NetworkStep copy = transform_step("x", layout::Layout::nchw(), layout::Layout::channel_blocked(4, 16));
  CHECK(evaluation::step_type(copy) == "transform");
}
