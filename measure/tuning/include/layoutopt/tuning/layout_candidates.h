#pragma once
// LayoutCandidates: the best configs of one task per distinct (input layout, output layout)
// pair. The graph solver chooses layouts, not kernels: it needs the cheapest kernel for
// every layout pair a task can run in, not only the single fastest config.
//
// What a config costs. The tuner keeps the fastest of thousands of configs, each timed once
// on a noisy machine, so a winner's tuning timing is biased low: it is often the luckiest
// run, not the fastest kernel. Timing the chosen configs again (config_confirmation.h)
// gives unbiased figures: a config timed again costs the median of its latest later timings
// (at most kLatestTimings of them), and its tuning timing, the one the search selected on,
// is left out. Only the latest count because a shared host drifts over hours (a large layer
// follows the memory bandwidth), and timings from a fast state would outvote fresh ones
// (config_confirmation.h spot-checks chosen configs for such drift; evidence:
// docs/design/stale-records.md). A config timed only once costs its timing times a factor:
// how much slower the task's re-timed configs came out than their tuning timings
// (selection_bias.h). Without that factor a confirmed config would lose to any unconfirmed
// rival whose only timing was lucky, and a plan of such rivals would predict the network
// too fast.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "layoutopt/kernels/tunable_op.h"

namespace layoutopt::tuning {

/// The later timings a re-timed config costs the median of: the latest three, so fresh
/// timings replace old ones while one odd timing among them does not move the cost.
inline constexpr size_t kLatestTimings = 3;

/// What scales a config's timings into its cost, besides the timings themselves.
struct CandidatePricing {
  double once_timed_factor = 1.0;  ///< for configs timed once: the task's selection bias
  /// For configs not in `fresh`: how far the task's timings drifted since they were taken,
  /// when a confirmation found them stale (config_confirmation.h); 1 otherwise.
  double stale_factor = 1.0;
  std::set<int64_t> fresh;  ///< configs timed since the drift: their timings alone price them
};

struct LayoutCandidate {
  int64_t index = 0;     ///< config index
  double seconds = 0;    ///< estimated cost (see above); one timing when added
  kernels::OpLayouts layouts;
  int timings = 1;       ///< how many timings the config has, its tuning timing included
};

class LayoutCandidates {
 public:
  /// Keeps up to `top_k` configs per layout pair (top_k >= 1).
  explicit LayoutCandidates(size_t top_k = 3);

  /// Adds one timing of a config (its `timings` field is ignored). The first timing added
  /// for a config is taken as its tuning timing.
  void add(const LayoutCandidate& candidate);

  /// For every config timed more than once: the median of its latest later timings divided
  /// by its tuning timing.
  [[nodiscard]] std::vector<double> retiming_ratios() const;

  /// The top_k configs of every layout pair (input, output) by estimated cost, fastest
  /// first within each pair: the median of the latest later timings for a config timed
  /// again, else its one timing times the once-timed factor; times the stale factor unless
  /// the config is fresh.
  [[nodiscard]] std::vector<LayoutCandidate> all(const CandidatePricing& pricing = {}) const;
  /// The estimated cost of config `index` by the same rule (whatever its rank in its layout
  /// pair), or nullopt when it has no working timing: how a baseline that runs a fixed
  /// config (the untuned default) is priced like the tuned ones.
  [[nodiscard]] std::optional<double> estimated_seconds(int64_t index, const CandidatePricing& pricing = {}) const;
  /// Distinct (input, output) layout pairs seen.
  [[nodiscard]] size_t pair_count() const { return by_pair_.size(); }

 private:
  struct Timed {
    kernels::OpLayouts layouts;
    std::vector<double> seconds;  ///< in the order added: the tuning timing first
    [[nodiscard]] double estimate(int64_t index, const CandidatePricing& pricing) const;
  };
  size_t top_k_;
  std::map<std::pair<std::string, std::string>, std::map<int64_t, Timed>> by_pair_;
};

}  // namespace layoutopt::tuning
