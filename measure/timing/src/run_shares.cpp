#include "layoutopt/timing/run_shares.h"

#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "layoutopt/timing/statistics.h"

namespace layoutopt::timing {

std::vector<double> step_medians(const std::vector<std::vector<double>>& runs, size_t steps) {
  std::vector<double> medians(steps, std::numeric_limits<double>::quiet_NaN());
  std::vector<double> samples;
  for (size_t s = 0; s < steps; ++s) {
    samples.clear();
    for (const std::vector<double>& run : runs)
      if (s < run.size() && !std::isnan(run[s])) samples.push_back(run[s]);
    if (!samples.empty() && samples.size() == runs.size()) medians[s] = summarize(samples).median;
  }
  return medians;
}

RunShares run_shares(const std::vector<std::vector<double>>& runs) {
  if (runs.empty()) throw std::invalid_argument("run_shares: no runs");
  const size_t steps = runs.front().size();
  std::vector<double> run_sums;
  for (const std::vector<double>& run : runs) {
    if (run.size() != steps)
      throw std::invalid_argument("run_shares: a run timed " + std::to_string(run.size()) + " steps, another " +
                                  std::to_string(steps));
    run_sums.push_back(std::accumulate(run.begin(), run.end(), 0.0));
  }
  RunShares shares;
  shares.run_ms = summarize(run_sums).median;
  shares.step_ms = step_medians(runs, steps);
  const double medians = std::accumulate(shares.step_ms.begin(), shares.step_ms.end(), 0.0);
  const double scale = medians > 0 ? shares.run_ms / medians : 0.0;
  for (double& ms : shares.step_ms) ms *= scale;
  return shares;
}

}  // namespace layoutopt::timing
