#pragma once
// The JSON-lines record log: reading it back (tolerating damage) and appending to it.
//
// Durability: every record is one complete line written with a single write() on a file
// opened O_APPEND, followed by fdatasync(). A killed process (Ctrl-C, kill -9) therefore
// loses at most the record being written, and a power loss at most the last one. A line
// torn by a crash mid-write is reported and skipped on the next load, and the writer starts
// a fresh line after it, so a torn fragment never corrupts a later record. A log is only
// ever appended to, never truncated or rewritten, and a file that is not a log is refused.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "layoutopt/tuning/measure_record.h"

namespace layoutopt::tuning {

struct LogIssue {
  int64_t line = 0;  ///< 1-based
  std::string reason;
};

struct LoadedLog {
  std::vector<MeasureRecord> records;
  std::vector<LogIssue> issues;  ///< lines skipped (corrupt, torn, foreign formats)
};

/// Reads every record of `path`; blank lines and '#' comments are ignored, any other
/// unreadable line becomes a LogIssue. A missing file is an empty log. Throws
/// std::runtime_error only when the file exists but cannot be read.
[[nodiscard]] LoadedLog load_record_log(const std::filesystem::path& path);

/// "line 12: not valid JSON ..." for the first `limit` issues and a count of the rest.
[[nodiscard]] std::string describe_issues(const std::filesystem::path& path, const std::vector<LogIssue>& issues,
                                          size_t limit = 5);

/// One warning when records of other targets (another CPU or thread count) are present: how many, for which targets,
/// and that they are not used for this one. nullopt when every record is for `target`.
[[nodiscard]] std::optional<std::string> foreign_target_warning(const std::vector<MeasureRecord>& records,
                                                                 const std::string& target);

/// Appends records to a log (created if missing). Not copyable; one per file at a time.
class RecordWriter {
 public:
  /// Throws std::runtime_error naming the path when it cannot be opened for appending, or
  /// when it starts with something other than a record line or a '#' comment (a plan, a
  /// model or a table named as the log by mistake), which appending would damage.
  explicit RecordWriter(const std::filesystem::path& path);
  ~RecordWriter();
  RecordWriter(const RecordWriter&) = delete;
  RecordWriter& operator=(const RecordWriter&) = delete;

  /// Writes the record's line and syncs it to disk before returning.
  void append(const MeasureRecord& record);
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  void write_all(const std::string& text);
  std::filesystem::path path_;
  int fd_ = -1;
};

}  // namespace layoutopt::tuning
