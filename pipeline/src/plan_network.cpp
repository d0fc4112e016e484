#include "layoutopt/pipeline/plan_network.h"

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "layoutopt/evaluation/end_to_end.h"
#include "layoutopt/pipeline/progress.h"
#include "layoutopt/planning/analytic_cost_model.h"
#include "layoutopt/timing/cost_policy.h"
#include "layoutopt/timing/thread_scope.h"
#include "layoutopt/tuning/default_configs.h"
#include "layoutopt/tuning/kernel_measurer.h"
#include "layoutopt/tuning/record_log.h"
#include "layoutopt/tuning/target.h"

namespace layoutopt::pipeline {

namespace {

/// Whether `default_seconds` prices the default config of every workload's default
/// algorithm, so the default plan can be made (costs::DefaultScheduleCosts).
bool defaults_priced(const std::vector<tuning::TuningTask>& tasks, const tuning::DefaultSeconds& default_seconds) {
  for (const tuning::TuningTask& task : tuning::default_algorithm_tasks(tasks))
    if (!default_seconds.contains(task.task_key())) return false;
  return true;
}

/// Times the tuned configs that the default (when priced), history-best and graph-tuned
/// plans choose again until each has policy.confirm_timings timings, appending them to the
/// record log.
costs::ConfirmationReport confirm_configs(const graph::Graph& graph, Measurements& measured,
                                          const costs::MeasuredCostSource& source,
                                          const planning::PlannerOptions& planner, const PlanRequest& request) {
  timing::ProgressReporter progress = progress_reporter(request.quiet);
  tuning::KernelMeasurer measurer(timing::cost_policy(measured.threads()));
  tuning::RecordWriter writer(measured.files().records);
  // The default row's choices do not depend on its configs' prices, so one reading serves
  // every round.
  const auto default_seconds = tuning::default_config_seconds(source.tasks(), measured.records(), planner.target);
  const bool with_default = defaults_priced(source.tasks(), default_seconds);
  const auto replan = [&](const costs::MeasuredCostSource& current) {
    std::vector<planning::Plan> plans;
    const auto baseline = [&](const char* name, evaluation::VariantCosts variant_costs) {
      plans.push_back(
          evaluation::plan_variant(graph, {name, variant_costs, planning::SolverChoice::automatic}, current,
                                   default_seconds, planner)
              .plan);
    };
    if (with_default) baseline("default", evaluation::VariantCosts::default_schedules);
    baseline("history best", evaluation::VariantCosts::fastest_kernels);
    plans.push_back(planning::plan_layouts(graph, current, planner).plan);
    return plans;
  };
  const costs::ConfirmationReport report = costs::confirm_chosen_configs(
      graph, source, measured.records(), measurer, [&](const tuning::MeasureRecord& r) { writer.append(r); }, replan,
      {.target = planner.target, .timings = request.policy.confirm_timings}, &progress);
  progress.finish();
  return report;
}

/// The untuned default's plan priced by `source`, when every default config was measured.
std::optional<planning::Plan> default_plan(const graph::Graph& graph, const Measurements& measured,
                                           const costs::MeasuredCostSource& source,
                                           const planning::PlannerOptions& planner) {
  const auto default_seconds = tuning::default_config_seconds(source.tasks(), measured.records(), planner.target);
  if (!defaults_priced(source.tasks(), default_seconds)) return std::nullopt;
  const evaluation::Variant variant{"default", evaluation::VariantCosts::default_schedules,
                                    planning::SolverChoice::automatic};
  return evaluation::plan_variant(graph, variant, source, default_seconds, planner).plan;
}

/// Prices the transforms and nodes of the default plan and the graph-tuned plan by their
/// time inside their compiled networks, planning again until it chooses only transforms so
/// timed.
costs::CalibrationReport calibrate_in_network(const graph::Graph& graph, const Measurements& measured,
                                              const costs::MeasuredCostSource& source,
                                              const planning::PlannerOptions& planner, const PlanRequest& request) {
  timing::ProgressReporter progress = progress_reporter(request.quiet);
  const auto replan = [&](const costs::MeasuredCostSource& current) {
    return planning::plan_layouts(graph, current, planner).plan;
  };
  const costs::CalibrationReport report =
      costs::calibrate_in_network(graph, source, replan, default_plan(graph, measured, source, planner),
                                  {.max_rounds = request.policy.calibrate_rounds}, &progress);
  progress.finish();
  return report;
}

PlanReport plan_modelled(const graph::Graph& graph, const PlanRequest& request) {
  const planning::AnalyticCostModel model;
  PlanReport report;
  report.planned = planning::plan_layouts(
      graph, model, planner_options(request.policy, tuning::host_target(request.threads), planning::CostKind::modelled));
  report.cost_source = model.name();
  return report;
}

PlanReport plan_measured(const graph::Graph& graph, const PlanRequest& request) {
  const timing::ThreadScope scope(request.threads);  // every timing of the step, as the measurements were taken
  PlanReport report;
  report.phases.time(Phase::flexible_ops, [&] {
    timing::ProgressReporter progress = progress_reporter(request.quiet);
    report.measurements = std::make_unique<Measurements>(graph, request.files, request.model, request.threads,
                                                         request.report_file_issues ? &progress : nullptr, &progress);
    progress.note("timed " + std::to_string(report.measurements->flexible().size()) +
                  " layout-flexible kernels in the offered layouts");
    progress.finish();
  });
  Measurements& measured = *report.measurements;
  const planning::PlannerOptions planner = planner_options(request.policy, measured.target(), planning::CostKind::measured);
  // Each check returns the repricing the next source is built with.
  if (request.policy.confirm_timings > 1) {
    report.confirmation = report.phases.time(Phase::confirmation, [&] {
      return confirm_configs(graph, measured, measured.cost_source(), planner, request);
    });
    report.repricing = report.confirmation->repricing;
    if (request.events.confirmed) request.events.confirmed(*report.confirmation);
  }
  if (request.policy.calibrate_rounds > 0) {
    report.calibration = report.phases.time(Phase::calibration, [&] {
      return calibrate_in_network(graph, measured, measured.cost_source(report.repricing), planner, request);
    });
    report.repricing = report.calibration->repricing;
    if (request.events.calibrated) request.events.calibrated(*report.calibration);
  }
  report.phases.time(Phase::planning, [&] {
    const costs::MeasuredCostSource source = measured.cost_source(report.repricing);
    report.planned = planning::plan_layouts(graph, source, planner);
    report.cost_source = source.name();
  });
  return report;
}

}  // namespace

void check_cost_inputs(planning::CostKind costs, const MeasurementFiles& files, const CostInputNames& names) {
  if (costs == planning::CostKind::measured) {
    std::vector<std::string> missing;
    if (files.records.empty()) missing.push_back(names.records);
    if (files.transforms.empty()) missing.push_back(names.transforms);
    if (missing.empty()) return;
    throw std::runtime_error("give " + missing.front() + (missing.size() > 1 ? " and " + missing.back() : "") +
                             " (or " + names.model_costs + " to plan without measurements)");
  }
  if (!files.records.empty() || !files.transforms.empty())
    throw std::runtime_error(names.model_costs + " plans without measurements: give no " + names.records + " or " +
                             names.transforms);
}

PlanReport plan_network(const graph::Graph& graph, const PlanRequest& request) {
  PlanReport report =
      request.costs == planning::CostKind::modelled ? plan_modelled(graph, request) : plan_measured(graph, request);
  if (!request.plan.empty()) planning::save_plan(report.planned.plan, request.plan);
  return report;
}

}  // namespace layoutopt::pipeline
