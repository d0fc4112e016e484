#include "layoutopt/costs/drift_check.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "layoutopt/timing/statistics.h"

namespace layoutopt::costs {

bool drifted(double drift, double reference, double limit) {
  return drift > reference * limit || drift * limit < reference;
}

std::map<size_t, double> drifted_tasks(std::span<const DriftSample> samples, double limit) {
  if (!(limit > 1)) throw std::invalid_argument("drifted_tasks: the limit must exceed 1");
  std::map<size_t, std::vector<double>> relative;   // task -> its spot checks' drift / their reference
  std::map<size_t, std::vector<double>> reference;  // task -> its spot checks' references
  for (size_t i = 0; i < samples.size(); ++i) {
    if (!samples[i].spot_check) continue;
    const size_t first = i - std::min(i, kDriftNeighbours);
    const size_t last = std::min(samples.size(), i + kDriftNeighbours + 1);
    std::vector<double> around;
    for (size_t j = first; j < last; ++j) around.push_back(samples[j].drift);
    const double neighbours = timing::summarize(around).median;
    relative[samples[i].task].push_back(samples[i].drift / neighbours);
    reference[samples[i].task].push_back(neighbours);
  }
  std::map<size_t, double> found;
  for (const auto& [task, ratios] : relative)
    if (drifted(timing::summarize(ratios).median, 1.0, limit)) found.emplace(task, timing::summarize(reference.at(task)).median);
  return found;
}

}  // namespace layoutopt::costs
