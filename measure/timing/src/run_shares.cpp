#include "layoutopt/timing/run_shares.h"

#include <numeric>
#include <stdexcept>

#include "layoutopt/timing/statistics.h"

namespace layoutopt::timing {

RunShares run_shares(const std::vector<std::vector<double>>& runs) {
  if (runs.empty()) throw std::invalid_argument("run_shares: no runs");
  const size_t steps = runs.front().size();
  std::vector<double> run_sums;
  std::vector<std::vector<double>> by_step(steps);
  for (const std::vector<double>& run : runs) {
    if (run.size() != steps)
      throw std::invalid_argument("run_shares: a run timed " + std::to_string(run.size()) + " steps, another " +
                                  std::to_string(steps));
    run_sums.push_back(std::accumulate(run.begin(), run.end(), 0.0));
    for (size_t s = 0; s < steps; ++s) by_step[s].push_back(run[s]);
  }
  RunShares shares;
  shares.run_ms = summarize(run_sums).median;
  for (const std::vector<double>& samples : by_step)
    shares.step_ms.push_back(samples.empty() ? 0.0 : summarize(samples).median);
  const double medians = std::accumulate(shares.step_ms.begin(), shares.step_ms.end(), 0.0);
  const double scale = medians > 0 ? shares.run_ms / medians : 0.0;
  for (double& ms : shares.step_ms) ms *= scale;
  return shares;
}

}  // namespace layoutopt::timing
