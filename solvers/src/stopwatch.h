#pragma once
// Wall-clock helpers for solve times and time limits (internal).

#include <chrono>

namespace layoutopt::solvers {

class Stopwatch {
 public:
  [[nodiscard]] double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

/// A point in time after which anytime searches stop and report what they have.
class Deadline {
 public:
  explicit Deadline(double seconds_from_now)
      : end_(std::chrono::steady_clock::now() +
             std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                 std::chrono::duration<double>(clamp(seconds_from_now)))) {}
  [[nodiscard]] bool passed() const { return std::chrono::steady_clock::now() >= end_; }

 private:
  // Far-future limits would overflow the clock's integer ticks; a year is "no limit".
  static double clamp(double seconds) { return seconds < 0 ? 0 : (seconds > 3e7 ? 3e7 : seconds); }
  std::chrono::steady_clock::time_point end_;
};

}  // namespace layoutopt::solvers
