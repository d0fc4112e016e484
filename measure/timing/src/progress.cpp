#include "layoutopt/timing/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <sstream>

namespace layoutopt::timing {

namespace {

std::string duration_text(double seconds) {
  const auto total = static_cast<int64_t>(std::lround(std::max(0.0, seconds)));
  std::ostringstream out;
  if (total >= 3600) out << total / 3600 << "h" << (total % 3600) / 60 << "m";
  else if (total >= 60) out << total / 60 << "m" << total % 60 << "s";
  else out << total << "s";
  return out.str();
}

}  // namespace

ProgressMode default_progress_mode(bool quiet) {
  if (quiet) return ProgressMode::quiet;
  return ::isatty(STDERR_FILENO) ? ProgressMode::live : ProgressMode::lines;
}

ProgressReporter::ProgressReporter(std::ostream& out, ProgressOptions options) : out_(out), options_(options) {}

ProgressReporter::~ProgressReporter() { finish(); }

std::string ProgressReporter::bar(double fraction, double elapsed_s, int width) {
  fraction = std::clamp(fraction, 0.0, 1.0);
  const int filled = static_cast<int>(std::lround(fraction * width));
  std::ostringstream out;
  out << "[" << std::string(static_cast<size_t>(filled), '#') << std::string(static_cast<size_t>(width - filled), '.')
      << "] " << std::lround(fraction * 100) << "%";
  if (fraction > 0 && fraction < 1) out << " ETA " << duration_text(elapsed_s * (1 - fraction) / fraction);
  return out.str();
}

double ProgressReporter::seconds_since(Clock::time_point t) const {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

void ProgressReporter::update(double done, double total, const std::string& status) {
  if (options_.mode == ProgressMode::quiet) return;
  const double interval = options_.mode == ProgressMode::live ? options_.live_interval_s : options_.line_interval_s;
  if (drew_once_ && seconds_since(last_draw_) < interval) return;
  const double fraction = total > 0 ? done / total : 0;
  draw(status + " | " + bar(fraction, seconds_since(start_), options_.bar_width));
}

void ProgressReporter::draw(const std::string& line) {
  last_draw_ = Clock::now();
  drew_once_ = true;
  last_line_ = line;
  if (options_.mode == ProgressMode::live) {
    out_ << "\r" << line << "\033[K" << std::flush;  // \033[K clears what a longer line left
    line_open_ = true;
  } else {
    out_ << line << "\n" << std::flush;
  }
}

void ProgressReporter::note(const std::string& message, bool important) {
  if (options_.mode == ProgressMode::quiet && !important) return;
  if (line_open_) out_ << "\r\033[K";
  out_ << message << "\n";
  if (line_open_) out_ << last_line_;
  out_ << std::flush;
}

void ProgressReporter::finish() {
  if (line_open_) out_ << "\n" << std::flush;
  line_open_ = false;
}

}  // namespace layoutopt::timing
