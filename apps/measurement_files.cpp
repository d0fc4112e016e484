#include "measurement_files.h"

#include <chrono>

namespace layoutopt::apps {

measure::LoadedLog load_records_warning(const std::filesystem::path& path, const std::string& target,
                                        measure::ProgressReporter& progress) {
  measure::LoadedLog log = measure::load_record_log(path);
  if (!log.issues.empty()) progress.note("warning: " + measure::describe_issues(path, log.issues), true);
  if (auto warning = measure::foreign_target_warning(log.records, target)) progress.note("warning: " + *warning, true);
  return log;
}

measure::TransformTable load_table_warning(const std::filesystem::path& path, measure::ProgressReporter& progress) {
  measure::TransformTable table = measure::TransformTable::load(path);
  if (!table.issues().empty())
    progress.note("warning: " + std::to_string(table.issues().size()) + " unreadable entries in " + path.string() +
                      " (first: entry " + std::to_string(table.issues()[0].entry) + ": " + table.issues()[0].reason +
                      "); they are kept as they are",
                  true);
  return table;
}

measure::FillResult fill_and_save_table(measure::TransformTable& table, const std::filesystem::path& path,
                                        const std::vector<measure::TransformKey>& keys,
                                        const measure::TimingPolicy& policy, const std::string& target,
                                        measure::ProgressReporter& progress) {
  // Saving a large table takes milliseconds; once a second bounds both that cost and what
  // an interrupted run loses.
  using Clock = std::chrono::steady_clock;
  Clock::time_point saved = Clock::now();
  const measure::FillResult filled = measure::fill_transform_table(table, keys, policy, target, &progress, [&] {
    if (Clock::now() - saved < std::chrono::seconds(1)) return;
    table.save(path);
    saved = Clock::now();
  });
  progress.finish();
  table.save(path);
  return filled;
}

}  // namespace layoutopt::apps
