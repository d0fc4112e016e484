#pragma once
// ProgressReporter: progress of a long job (tuning, transform benchmarks) that a person can
// follow. Each update carries a status line, e.g.
//   [Task 3/20] Current/Best: 410.2/1380.5 GFLOPS | Progress: (96/3136) | 31.4 s
// to which an overall bar with ETA is appended:  [#######.........]  45% ETA 1m38s
// On a terminal the line is rewritten in place (\r); otherwise (a pipe, a log file) a plain
// line is printed at most every `line_interval_s`, so logs stay readable. Quiet mode
// prints nothing but notes marked important (warnings).

#include <chrono>
#include <iosfwd>
#include <string>

namespace layoutopt::timing {

enum class ProgressMode {
  live,   ///< rewrite one line in place (terminals)
  lines,  ///< periodic plain lines (pipes, files)
  quiet,  ///< no progress output
};

struct ProgressOptions {
  ProgressMode mode = ProgressMode::lines;
  double line_interval_s = 10.0;  ///< lines mode: least time between two printed lines
  double live_interval_s = 0.1;   ///< live mode: least time between two redraws
  int bar_width = 20;
};

/// live on a terminal stderr, lines otherwise; quiet when `quiet`.
[[nodiscard]] ProgressMode default_progress_mode(bool quiet);

class ProgressReporter {
 public:
  /// Reports to `out` (not owned; must outlive the reporter).
  ProgressReporter(std::ostream& out, ProgressOptions options);
  ~ProgressReporter();
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  /// `done` of `total` units (trials, seconds, entries) are complete. Rate-limited.
  void update(double done, double total, const std::string& status);
  /// A permanent line (e.g. "task 3 finished"); printed above the live line. Skipped in
  /// quiet mode unless `important`.
  void note(const std::string& message, bool important = false);
  /// Ends the live line; idempotent, called by the destructor.
  void finish();

  /// "[####....]  45% ETA 1m38s" for the given fraction and elapsed seconds.
  [[nodiscard]] static std::string bar(double fraction, double elapsed_s, int width);

 private:
  using Clock = std::chrono::steady_clock;
  [[nodiscard]] double seconds_since(Clock::time_point t) const;
  void draw(const std::string& line);

  std::ostream& out_;
  ProgressOptions options_;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_draw_{};
  bool drew_once_ = false;
  bool line_open_ = false;  ///< live mode: a line without newline is on screen
  std::string last_line_;
};

}  // namespace layoutopt::timing
