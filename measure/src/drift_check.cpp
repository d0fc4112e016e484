#include "layoutopt/measure/drift_check.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <vector>

#include "layoutopt/measure/statistics.h"

namespace layoutopt::measure {

std::set<size_t> drifted_tasks(std::span<const DriftSample> samples, double limit) {
  if (!(limit > 1)) throw std::invalid_argument("drifted_tasks: the limit must exceed 1");
  std::map<size_t, std::vector<double>> relative;  // task -> its spot checks' drift / their reference
  for (size_t i = 0; i < samples.size(); ++i) {
    if (!samples[i].spot_check) continue;
    const size_t first = i - std::min(i, kDriftNeighbours);
    const size_t last = std::min(samples.size(), i + kDriftNeighbours + 1);
    std::vector<double> around;
    for (size_t j = first; j < last; ++j) around.push_back(samples[j].drift);
    relative[samples[i].task].push_back(samples[i].drift / summarize(around).median);
  }
  std::set<size_t> drifted;
  for (const auto& [task, ratios] : relative)
    if (const double median = summarize(ratios).median; median > limit || median < 1 / limit) drifted.insert(task);
  return drifted;
}

}  // namespace layoutopt::measure
