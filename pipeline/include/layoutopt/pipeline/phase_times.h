#pragma once
// Wall time of each phase of the main job, in the order they ran: what `optimize` and `plan`
// print at the end, so the time to a plan can be read by part (tuning against transform
// timing against the checks) and not only in all.

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace layoutopt::pipeline {

enum class Phase {
  tuning,           ///< [1/4] the tuner under its budget
  default_configs,  ///< [2/4] the default configs of the baseline
  layout_variants,  ///< [2/4] fastest configs storing or reading in their neighbours' blocks
  transforms,       ///< [3/4] the transform table
  flexible_ops,     ///< the layout-flexible kernels in their offered layouts
  confirmation,     ///< chosen configs timed again
  calibration,      ///< plans timed inside their compiled networks
  planning,         ///< the final plan: problem, solver, plan file
  comparison,       ///< [4/4] the variants compiled and timed side by side
};

[[nodiscard]] const char* to_string(Phase phase);

class PhaseTimes {
 public:
  /// Runs `work` and adds its wall time to `phase`; returns what `work` returns.
  template <typename Work>
  decltype(auto) time(Phase phase, Work&& work) {
    const Stopwatch stopwatch(*this, phase);
    return std::forward<Work>(work)();
  }

  /// Appends `other`'s phases after this one's.
  void append(const PhaseTimes& other);
  [[nodiscard]] const std::vector<std::pair<Phase, double>>& seconds() const { return seconds_; }
  [[nodiscard]] double total_seconds() const;
  /// "tuning 61 s, default configs 2 s, transforms 40 s, ...; 171 s in all".
  [[nodiscard]] std::string summary() const;

 private:
  /// Adds the time from its construction to its destruction, also when `work` throws.
  class Stopwatch {
   public:
    Stopwatch(PhaseTimes& times, Phase phase) : times_(times), phase_(phase) {}
    Stopwatch(const Stopwatch&) = delete;
    Stopwatch& operator=(const Stopwatch&) = delete;
    ~Stopwatch() { times_.add(phase_, std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count()); }

   private:
    PhaseTimes& times_;
    Phase phase_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  };

  void add(Phase phase, double seconds);

  std::vector<std::pair<Phase, double>> seconds_;
};

}  // namespace layoutopt::pipeline
