#include "layoutopt/pipeline/measurement_files.h"

#include <chrono>

namespace layoutopt::pipeline {

tuning::LoadedLog load_records_warning(const std::filesystem::path& path, const std::string& target,
                                       timing::ProgressReporter& progress) {
  tuning::LoadedLog log = tuning::load_record_log(path);
  if (!log.issues.empty()) progress.note("warning: " + tuning::describe_issues(path, log.issues), true);
  if (auto warning = tuning::foreign_target_warning(log.records, target)) progress.note("warning: " + *warning, true);
  return log;
}

costs::TransformTable load_table_warning(const std::filesystem::path& path, timing::ProgressReporter& progress) {
  costs::TransformTable table = costs::TransformTable::load(path);
  if (!table.issues().empty())
    progress.note("warning: " + std::to_string(table.issues().size()) + " unreadable entries in " + path.string() +
                      " (first: entry " + std::to_string(table.issues()[0].entry) + ": " + table.issues()[0].reason +
                      "); they are kept as they are",
                  true);
  return table;
}

costs::FillResult fill_and_save_table(costs::TransformTable& table, const std::filesystem::path& path,
                                      const std::vector<costs::TransformKey>& keys, costs::TransformTimer& timer,
                                      const std::string& target, int threads, timing::ProgressReporter& progress) {
  // Saving a large table takes milliseconds; once a second bounds both that cost and what
  // an interrupted run loses.
  using Clock = std::chrono::steady_clock;
  Clock::time_point saved = Clock::now();
  const costs::FillResult filled = costs::fill_transform_table(table, keys, timer, target, threads, &progress, [&] {
    if (Clock::now() - saved < std::chrono::seconds(1)) return;
    table.save(path);
    saved = Clock::now();
  });
  progress.finish();
  table.save(path);
  return filled;
}

}  // namespace layoutopt::pipeline
