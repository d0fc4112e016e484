#include "layoutopt/evaluation/step_profile.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace layoutopt::evaluation {

namespace {

/// The plan's price for a step: its node's, or the transform's of that tensor into that layout.
std::optional<double> planned_ms(const kernels::NetworkStep& step, const planning::Plan& plan) {
  if (step.node) {
    const auto index = static_cast<size_t>(*step.node);
    return index < plan.nodes.size() ? std::optional(plan.nodes[index].ms) : std::nullopt;
  }
  if (!step.transform) return std::nullopt;
  for (const planning::PlanTransform& transform : plan.transforms)
    if (transform.value == step.name && transform.to == step.transform->to) return transform.ms;
  return std::nullopt;
}

}  // namespace

std::string step_type(const kernels::NetworkStep& step) {
  const std::string kind = kernels::to_string(step.kind);
  if (!step.kernel.empty()) return kind + " " + step.kernel;
  // A node that runs as a layout copy (a Transpose) has no kernel kind: its operator names it.
  return step.op ? kind + " " + std::string(graph::to_string(*step.op)) : kind;
}

std::map<graph::NodeId, double> StepProfile::node_ms() const {
  std::map<graph::NodeId, double> by_node;
  for (const StepTime& time : steps)
    if (time.step->node) by_node[*time.step->node] += time.measured_ms;
  return by_node;
}

ThreadWaiting StepProfile::waiting() const {
  ThreadWaiting waiting;
  for (const StepTime& time : steps) {
    if (!time.wait_ms) {
      ++waiting.unrecorded_steps;
      continue;
    }
    waiting.wait_ms += *time.wait_ms;
    waiting.recorded_ms += time.measured_ms;
  }
  return waiting;
}

std::vector<StepTypeTotals> StepProfile::types() const {
  std::map<std::string, StepTypeTotals> by_type;
  for (const StepTime& time : steps) {
    StepTypeTotals& totals = by_type[step_type(*time.step)];
    totals.steps += 1;
    totals.measured_ms += time.measured_ms;
    totals.predicted_ms += time.predicted_ms.value_or(0.0);
  }
  std::vector<StepTypeTotals> types;
  for (auto& [type, totals] : by_type) {
    totals.type = type;
    types.push_back(totals);
  }
  return types;
}

StepProfile profile_against_plan(const std::vector<kernels::NetworkStep>& steps, const costs::NetworkProfile& measured,
                                 const planning::Plan* plan) {
  StepProfile profile{{}, measured.run_ms, plan != nullptr};
  for (size_t s = 0; s < steps.size(); ++s) {
    StepTime& time = profile.steps.emplace_back(StepTime{&steps[s], measured.step_ms.at(s), std::nullopt, std::nullopt});
    if (plan) time.predicted_ms = planned_ms(steps[s], *plan);
    if (s < measured.wait_ms.size() && !std::isnan(measured.wait_ms[s])) time.wait_ms = measured.wait_ms[s];
  }
  return profile;
}

}  // namespace layoutopt::evaluation
