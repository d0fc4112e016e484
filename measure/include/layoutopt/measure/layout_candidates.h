#pragma once
// LayoutCandidates: the best configs of one task per distinct (input layout, output layout)
// pair. The graph solver chooses layouts, not kernels: it needs the cheapest kernel for
// every layout pair a task can run in, not only the single fastest config.
//
// A config timed more than once costs the median of its timings. Why not the fastest: the
// tuner keeps the fastest of thousands of configs, each timed once on a noisy machine, so
// the winner's single timing is biased low (it is often the luckiest run, not the fastest
// kernel). Timing the chosen configs again (config_confirmation.h) and taking the median
// removes that bias; the minimum would keep it.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "layoutopt/kernels/tunable_op.h"

namespace layoutopt::measure {

struct LayoutCandidate {
  int64_t index = 0;     ///< config index
  double seconds = 0;    ///< measured cost: the median of its timings
  kernels::OpLayouts layouts;
  int timings = 1;       ///< how many timings `seconds` summarizes
};

class LayoutCandidates {
 public:
  /// Keeps up to `top_k` configs per layout pair (top_k >= 1).
  explicit LayoutCandidates(size_t top_k = 3);

  /// Adds one timing of a config (its `timings` field is ignored).
  void add(const LayoutCandidate& candidate);

  /// The top_k configs of every layout pair (input, output) by median time, fastest first
  /// within each pair.
  [[nodiscard]] std::vector<LayoutCandidate> all() const;
  /// Distinct (input, output) layout pairs seen.
  [[nodiscard]] size_t pair_count() const { return by_pair_.size(); }

 private:
  struct Timed {
    kernels::OpLayouts layouts;
    std::vector<double> seconds;
  };
  size_t top_k_;
  std::map<std::pair<std::string, std::string>, std::map<int64_t, Timed>> by_pair_;
};

}  // namespace layoutopt::measure
