#include "layoutopt/pipeline/tune_model.h"

#include <stdexcept>

#include "layoutopt/pipeline/measurement_files.h"
#include "layoutopt/pipeline/progress.h"
#include "layoutopt/timing/cost_policy.h"
#include "layoutopt/tuning/kernel_measurer.h"
#include "layoutopt/tuning/record_log.h"
#include "layoutopt/tuning/target.h"

namespace layoutopt::pipeline {

namespace {

// Sweeps a task's whole space: a tuner with no model (random order), no early stop and no
// screen visits every config exactly once, hopeless register tiles included (a sweep is
// ground truth).
tuning::SessionOptions exhaustive_options(tuning::SessionOptions options, const tuning::TuningTask& task) {
  options.trials = task.op.space().searched_size();
  options.time_budget_s = 0;
  options.tuner.random_warmup = options.trials + 1;
  options.tuner.early_stopping = 0;
  options.tuner.screen_far_tiles = false;
  return options;
}

tuning::SessionOptions session_options(const TuneRequest& request) {
  tuning::SessionOptions options;
  options.target = tuning::host_target(request.threads);
  options.trials = request.trials;
  options.time_budget_s = request.time_budget_s;
  options.batch_size = request.batch_size;
  options.tuner.top_k = request.top_k;
  options.tuner.early_stopping = request.early_stopping;
  options.tuner.seed = request.seed;
  return options;
}

}  // namespace

std::vector<tuning::TuningTask> requested_tasks(const graph::Graph& graph, const TuneRequest& request) {
  std::vector<tuning::TuningTask> tasks = tuning::extract_tasks(graph);
  const size_t only = request.exhaustive > 0 ? request.exhaustive : request.task;
  if (only > tasks.size())
    throw std::runtime_error("task " + std::to_string(only) + " does not exist: the model has " +
                             std::to_string(tasks.size()) + " tasks (see `layoutopt info`)");
  if (only > 0) tasks = {tasks[only - 1]};
  return tasks;
}

TuneReport tune_model(const graph::Graph& graph, const TuneRequest& request) {
  tuning::KernelMeasurer measurer(timing::cost_policy(request.threads, request.min_repeat_ms));
  return tune_model(graph, request, measurer);
}

TuneReport tune_model(const graph::Graph& graph, const TuneRequest& request, tuning::Measurer& measurer) {
  if (request.trials <= 0 && request.time_budget_s <= 0 && request.exhaustive == 0)
    throw std::runtime_error("give a budget: --trials N or --time-budget SECONDS (or --exhaustive TASK)");
  if (request.task > 0 && request.exhaustive > 0)
    throw std::runtime_error("give --task or --exhaustive, not both");
  TuneReport report{requested_tasks(graph, request), {}, tuning::host_target(request.threads), 0};
  tuning::SessionOptions options = session_options(request);
  if (request.exhaustive > 0) options = exhaustive_options(options, report.tasks.front());
  timing::ProgressReporter progress = progress_reporter(request.quiet);
  const tuning::LoadedLog log = load_records_warning(request.records, options.target, progress);
  if (!log.records.empty())
    progress.note("resuming from " + std::to_string(log.records.size()) + " records in " + request.records.string());
  progress.note("tuning " + std::to_string(report.tasks.size()) + " tasks of " + graph.name() + " on " +
                options.target + "; records appended to " + request.records.string());
  tuning::RecordWriter writer(request.records);
  report.result = tuning::tune_tasks(
      report.tasks, log.records, measurer, [&](const tuning::MeasureRecord& r) { writer.append(r); }, options, &progress);
  progress.finish();
  if (report.result.unmatched_records > 0)
    progress.note("note: " + std::to_string(report.result.unmatched_records) +
                      " records name a task of this model but a config outside its space (ignored)",
                  true);
  report.estimated_seconds = tuning::estimated_latency(report.tasks, report.result);
  return report;
}

}  // namespace layoutopt::pipeline
