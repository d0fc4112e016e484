#include "layoutopt/tuning/record_log.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string_view>

namespace layoutopt::tuning {

namespace {

bool is_blank_or_comment(const std::string& line) {
  const size_t first = line.find_first_not_of(" \t\r");
  return first == std::string::npos || line[first] == '#';
}

std::runtime_error system_error(const std::string& what, const std::filesystem::path& path) {
  return std::runtime_error(what + " '" + path.string() + "': " + std::strerror(errno));
}

// True when the file is non-empty and its last byte is not a newline: the tail of a line
// torn by a crash, which the next record must not be appended to.
bool ends_mid_line(int fd) {
  const off_t size = ::lseek(fd, 0, SEEK_END);
  if (size <= 0) return false;
  char last = '\n';
  return ::pread(fd, &last, 1, size - 1) == 1 && last != '\n';
}

// A record log starts with a record line ({"input": ..., or AutoTVM v0.1's {"i": ...) or a '#'
// comment. A file that starts otherwise (a plan, a model or a table given as the log by
// mistake) is the user's work, which appended records would damage.
bool starts_like_record_log(int fd) {
  char head[4096];
  const ssize_t n = ::pread(fd, head, sizeof head, 0);
  if (n <= 0) return true;  // empty (or unreadable, which the first write reports)
  std::string_view text(head, static_cast<size_t>(n));
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return true;  // blank so far
  text.remove_prefix(first);
  if (text.starts_with("#")) return true;
  if (!text.starts_with("{")) return false;
  const size_t key = text.find_first_not_of(" \t", 1);
  return key != std::string_view::npos && text[key] == '"';
}

}  // namespace

LoadedLog load_record_log(const std::filesystem::path& path) {
  LoadedLog log;
  if (!std::filesystem::exists(path)) return log;
  std::ifstream in(path);
  if (!in) throw system_error("cannot read record log", path);
  std::string line;
  for (int64_t number = 1; std::getline(in, line); ++number) {
    if (is_blank_or_comment(line)) continue;
    try {
      log.records.push_back(parse_record(line));
    } catch (const RecordError& e) {
      log.issues.push_back({number, e.what()});
    }
  }
  return log;
}

std::string describe_issues(const std::filesystem::path& path, const std::vector<LogIssue>& issues, size_t limit) {
  std::ostringstream out;
  out << "skipped " << issues.size() << " unreadable line" << (issues.size() == 1 ? "" : "s") << " in "
      << path.string() << ":";
  for (size_t i = 0; i < issues.size() && i < limit; ++i)
    out << "\n  line " << issues[i].line << ": " << issues[i].reason;
  if (issues.size() > limit) out << "\n  ... and " << issues.size() - limit << " more";
  return out.str();
}

std::optional<std::string> foreign_target_warning(const std::vector<MeasureRecord>& records,
                                                  const std::string& target) {
  std::map<std::string, int64_t> foreign;
  int64_t own = 0;
  for (const MeasureRecord& record : records) {
    if (record.target == target) ++own;
    else ++foreign[record.target];
  }
  if (foreign.empty()) return std::nullopt;
  std::ostringstream out;
  out << "the log holds records of other targets (CPU or thread count), not used for " << target << " (" << own << " records are):";
  for (const auto& [other, count] : foreign) out << " " << count << " for '" << other << "';";
  return out.str();
}

// Read access only serves ends_mid_line; every write goes to the end (O_APPEND).
RecordWriter::RecordWriter(const std::filesystem::path& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw system_error("cannot open record log for appending", path);
  if (!starts_like_record_log(fd_)) {
    ::close(fd_);
    throw std::runtime_error("'" + path.string() +
                             "' is not a tuning record log (its first line is not a JSON record): records are not "
                             "appended to it; give a new file or an existing record log");
  }
  if (ends_mid_line(fd_)) write_all("\n");
}

RecordWriter::~RecordWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void RecordWriter::append(const MeasureRecord& record) {
  write_all(to_json_line(record) + "\n");
  if (::fdatasync(fd_) != 0) throw system_error("cannot sync record log", path_);
}

void RecordWriter::write_all(const std::string& text) {
  // One write() per line keeps lines whole; the loop only matters for short writes.
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw system_error("cannot append to record log", path_);
    done += static_cast<size_t>(n);
  }
}

}  // namespace layoutopt::tuning
