#include "layoutopt/pipeline/optimize.h"

#include <algorithm>
#include <stdexcept>

#include "layoutopt/costs/network_timing.h"
#include "layoutopt/costs/transform_enumeration.h"
#include "layoutopt/pipeline/openmp_wait.h"
#include "layoutopt/pipeline/progress.h"
#include "layoutopt/planning/plan.h"
#include "layoutopt/timing/cost_policy.h"
#include "layoutopt/timing/thread_scope.h"
#include "layoutopt/tuning/default_configs.h"
#include "layoutopt/tuning/kernel_measurer.h"
#include "layoutopt/tuning/record_log.h"
#include "layoutopt/tuning/layout_variants.h"
#include "layoutopt/tuning/target.h"
#include "layoutopt/tuning/tuning_session.h"

namespace layoutopt::pipeline {

namespace {

/// [1/4] and [2/4]: tunes under the budget, measures the default configs and the layout
/// variants, appending every trial to the log. Returns the log's records with the new ones.
std::vector<tuning::MeasureRecord> tune(const graph::Graph& graph, const std::vector<tuning::TuningTask>& tasks,
                                        const OptimizeRequest& request, const std::string& target, PhaseTimes& phases,
                                        tuning::Measurer& measurer) {
  timing::ProgressReporter progress = progress_reporter(request.quiet);
  const std::filesystem::path& records = request.files.records;
  tuning::LoadedLog log = load_records_warning(records, target, progress);
  progress.note("[1/4] tuning " + std::to_string(tasks.size()) + " tasks for " +
                std::to_string(static_cast<int>(request.budget.seconds())) + " s on " + target +
                (log.records.empty() ? "" : ", resuming from " + std::to_string(log.records.size()) + " records") +
                " (" + records.string() + ")");
  tuning::RecordWriter writer(records);
  tuning::SessionOptions options;
  options.target = target;
  options.time_budget_s = request.budget.seconds();
  auto append = [&](const tuning::MeasureRecord& r) {
    writer.append(r);
    log.records.push_back(r);
  };
  const std::vector<tuning::MeasureRecord> history = log.records;
  phases.time(Phase::tuning, [&] { (void)tuning::tune_tasks(tasks, history, measurer, append, options, &progress); });
  progress.finish();
  // The default baseline runs one algorithm per workload, the one the default picks.
  const std::vector<tuning::TuningTask> defaulted = tuning::default_algorithm_tasks(tasks);
  const auto defaults = phases.time(Phase::default_configs, [&] {
    return tuning::measure_default_configs(defaulted, log.records, measurer, target, append);
  });
  progress.note("[2/4] default configs: " + std::to_string(defaults.size()) + " measured now, " +
                std::to_string(defaulted.size() - defaults.size()) + " from the log");
  size_t stores = 0, loads = 0;
  phases.time(Phase::layout_variants, [&] {
    // One summary of the log serves all: the blocks readers compute in, the blocks a plan may
    // hold tensors in, and the configs to vary.
    const tuning::SessionResult known = tuning::summarize_history(tasks, log.records, target);
    const auto tuned = costs::tuned_blocks(tasks, known);
    const auto store = tuning::store_variants(tasks, known, costs::read_blocks(tasks, tuned));
    const auto load = tuning::load_variants(tasks, known, costs::held_blocks(costs::enumerate_layouts(graph, tuned)));
    stores = tuning::measure_variants(tasks, store, measurer, target, append).size();
    loads = tuning::measure_variants(tasks, load, measurer, target, append).size();
  });
  progress.note("[2/4] layout variants (the fastest config storing in a reader's block, or reading in a block the "
                "plan may hold its input in): " +
                std::to_string(stores) + " stores and " + std::to_string(loads) + " loads measured now");
  return log.records;
}

/// [3/4]: times the transforms the tuned layouts may need that the table lacks.
void bench_transforms(const graph::Graph& graph, const std::vector<tuning::TuningTask>& tasks,
                      const std::vector<tuning::MeasureRecord>& records, const OptimizeRequest& request,
                      const std::string& target, costs::TransformTimer& timer) {
  timing::ProgressReporter progress = progress_reporter(request.quiet);
  const std::filesystem::path& path = request.files.transforms;
  costs::TransformTable table = load_table_warning(path, progress);
  const auto keys = costs::enumerate_transforms(graph, costs::tuned_blocks(tasks, records, target));
  const costs::FillResult filled =
      fill_and_save_table(table, path, keys, timer, target, request.threads, progress);
  progress.note("[3/4] transforms: " + std::to_string(keys.size()) + " needed, " + std::to_string(filled.measured) +
                " timed now, " + std::to_string(filled.reused) + " from " + path.string());
}

/// The comparison row a graph-tuned plan of `solver` is.
std::string graph_tuned_variant(planning::SolverChoice solver) {
  for (const evaluation::Variant& variant : evaluation::standard_variants())
    if (variant.costs == evaluation::VariantCosts::measured && variant.solver == solver) return variant.name;
  return "graph tuned (" + planning::to_string(solver) + ")";
}

/// ": why a; why b", or nothing without reasons.
std::string reasons(const std::vector<std::string>& why) {
  std::string out;
  for (const std::string& reason : why) out += (out.empty() ? ": " : "; ") + reason;
  return out;
}

}  // namespace

PlanRequest plan_step_request(const OptimizeRequest& request) {
  const bool quiet = request.quiet;
  return {.costs = planning::CostKind::measured,
          .files = request.files,
          .plan = request.plan,
          .model = request.model,
          .threads = request.threads,
          .policy = request.plan_policy,
          .quiet = quiet,
          // The tuning and transform steps read both files and reported their issues.
          .report_file_issues = false,
          .events = {.confirmed =
                         [quiet](const costs::ConfirmationReport& report) {
                           progress_reporter(quiet).note("[4/4] confirmed: " + report.summary());
                         },
                     .calibrated =
                         [quiet](const costs::CalibrationReport& report) {
                           progress_reporter(quiet).note("[4/4] " + report.summary());
                         }}};
}

OptimizeReport optimize_model(const graph::Graph& graph, const OptimizeRequest& request) {
  tuning::KernelMeasurer measurer(timing::cost_policy(request.threads));
  costs::LocalTransformTimer timer(timing::cost_policy(request.threads), tuning::host_target(request.threads));
  return optimize_model(graph, request, {measurer, timer});
}

OptimizeReport optimize_model(const graph::Graph& graph, const OptimizeRequest& request, const Measurers& measurers) {
  OptimizeReport report;
  report.threads = request.threads;
  report.target = tuning::host_target(request.threads);
  const timing::ThreadScope scope(request.threads);
  const std::vector<tuning::TuningTask> tasks = tuning::extract_tasks(graph);
  const std::vector<tuning::MeasureRecord> records = tune(graph, tasks, request, report.target, report.phases, measurers.configs);
  report.phases.time(Phase::transforms,
                     [&] { bench_transforms(graph, tasks, records, request, report.target, measurers.transforms); });

  warn_if_passive_openmp_wait();
  report.plan = plan_network(graph, plan_step_request(request));
  report.phases.append(report.plan.phases);
  report.plan_variant = graph_tuned_variant(report.plan.planned.solver);
  const Measurements& measured = *report.plan.measurements;
  const costs::MeasuredCostSource source = measured.cost_source(report.plan.repricing);

  timing::ProgressReporter progress = progress_reporter(request.quiet);
  const evaluation::EndToEndOptions options{planner_options(request.plan_policy, report.target, planning::CostKind::measured),
                                            costs::network_policy(request.threads, request.round_ms), request.rounds};
  progress.note("[4/4] planning and compiling default, history best, graph tuned (DP, PBQP); timing them in " +
                std::to_string(options.rounds) + " alternating rounds");
  report.rows = report.phases.time(Phase::comparison, [&] {
    return evaluation::evaluate_variants(graph, evaluation::standard_variants(), source,
                                         tuning::default_config_seconds(tasks, measured.records(), report.target),
                                         options, &report.refused);
  });
  progress.finish();
  if (report.rows.empty()) throw std::runtime_error("no variant could be planned and compiled" + reasons(report.refused));
  return report;
}

const evaluation::VariantResult* earlier_row_with_same_plan(const std::vector<evaluation::VariantResult>& rows,
                                                            size_t i) {
  for (size_t j = 0; j < i; ++j)
    if (planning::same_schedule(rows[j].planned.plan, rows[i].planned.plan)) return &rows[j];
  return nullptr;
}

std::optional<FasterThanWritten> row_faster_than_written(const OptimizeReport& report) {
  const auto written = std::find_if(report.rows.begin(), report.rows.end(), [&](const evaluation::VariantResult& row) {
    return row.variant.name == report.plan_variant;
  });
  if (written == report.rows.end()) return std::nullopt;
  std::optional<FasterThanWritten> fastest;
  for (const evaluation::VariantResult& row : report.rows) {
    if (&row == &*written || planning::same_schedule(row.planned.plan, written->planned.plan)) continue;
    if (row.measured.max < written->measured.min && (!fastest || row.measured.median < fastest->faster->measured.median))
      fastest = FasterThanWritten{&row, &*written};
  }
  return fastest;
}

}  // namespace layoutopt::pipeline
