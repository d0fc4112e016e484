#include "layoutopt/pipeline/extend_transform_table.h"

#include "layoutopt/costs/transform_enumeration.h"
#include "layoutopt/pipeline/measurement_files.h"
#include "layoutopt/pipeline/progress.h"
#include "layoutopt/timing/cost_policy.h"
#include "layoutopt/timing/thread_scope.h"
#include "layoutopt/tuning/record_log.h"
#include "layoutopt/tuning/target.h"
#include "layoutopt/tuning/tuning_session.h"

namespace layoutopt::pipeline {

namespace {

// Blocks of the tuned candidates of each task, when a record log is given.
costs::TunedBlocks tuned_blocks(const graph::Graph& graph, const std::filesystem::path& records,
                                const std::string& target, timing::ProgressReporter& progress) {
  if (records.empty()) return {};
  const tuning::LoadedLog log = load_records_warning(records, target, progress);
  const std::vector<tuning::TuningTask> tasks = tuning::extract_tasks(graph);
  costs::TunedBlocks blocks = costs::tuned_blocks(tasks, log.records, target);
  progress.note("layouts of " + std::to_string(blocks.size()) + "/" + std::to_string(tasks.size()) +
                " tasks from tuned candidates in " + records.string() + "; vector-friendly blocks for the rest");
  return blocks;
}

}  // namespace

timing::TimingPolicy transform_policy(const TransformTableRequest& request) {
  return timing::cost_policy(request.threads, request.min_repeat_ms);
}

TransformTableReport extend_transform_table(const graph::Graph& graph, const TransformTableRequest& request) {
  costs::LocalTransformTimer timer(transform_policy(request), tuning::host_target(request.threads));
  return extend_transform_table(graph, request, timer);
}

TransformTableReport extend_transform_table(const graph::Graph& graph, const TransformTableRequest& request,
                                            costs::TransformTimer& timer) {
  const timing::ThreadScope scope(request.threads);
  TransformTableReport report;
  report.target = tuning::host_target(request.threads);
  timing::ProgressReporter progress = progress_reporter(request.quiet);
  costs::TransformTable table = load_table_warning(request.table, progress);
  report.keys = costs::enumerate_transforms(graph, tuned_blocks(graph, request.records, report.target, progress));
  progress.note(std::to_string(report.keys.size()) + " transforms for " + graph.name() + " on " + report.target +
                ", each timed alone on " + std::to_string(request.threads) +
                " threads (concurrent timings on one host would disturb each other)");
  report.filled = fill_and_save_table(table, request.table, report.keys, timer, report.target, request.threads, progress);
  report.table_entries = table.entries().size();
  return report;
}

}  // namespace layoutopt::pipeline
