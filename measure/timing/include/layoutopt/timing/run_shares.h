#pragma once
// Each step's share of a typical run, from runs timed step by step. A step's own median
// understates it: a run of many short steps, each with a long upper tail, almost always has
// a slow step somewhere, so the median run sits above the sum of the steps' medians (6-9%
// on an 82-step mobile network). Planning adds step prices to predict a run, so a step's
// in-network price is its median scaled by the median run over the sum of the medians: the
// shares keep the medians' proportions and add up to the median run.

#include <cstddef>
#include <vector>

namespace layoutopt::timing {

struct RunShares {
  std::vector<double> step_ms;  ///< per step, in step order; they sum to run_ms
  double run_ms = 0;            ///< median over runs of the runs' step sums
};

/// `runs[r][s]` is step s's time in run r (ms). Every run must time the same steps; throws
/// std::invalid_argument when `runs` is empty or ragged. Steps whose medians are all zero
/// keep zero shares and the run median 0.
[[nodiscard]] RunShares run_shares(const std::vector<std::vector<double>>& runs);

/// Each step's median over `runs` (runs[r][s] as above), for `steps` steps; NaN for a step
/// some run lacks or has as NaN (a figure that run did not record).
[[nodiscard]] std::vector<double> step_medians(const std::vector<std::vector<double>>& runs, std::size_t steps);

}  // namespace layoutopt::timing
