#include "layoutopt/tuning/selection_bias.h"

#include "layoutopt/timing/statistics.h"
#include "layoutopt/tuning/tuning_session.h"

namespace layoutopt::tuning {

std::vector<double> once_timed_factors(const std::vector<std::vector<double>>& ratios_by_task, size_t own_needed) {
  std::vector<double> pooled;
  for (const std::vector<double>& ratios : ratios_by_task) pooled.insert(pooled.end(), ratios.begin(), ratios.end());
  const double pooled_factor = pooled.empty() ? 1.0 : timing::summarize(pooled).median;
  std::vector<double> factors;
  for (const std::vector<double>& ratios : ratios_by_task)
    factors.push_back(!ratios.empty() && ratios.size() >= own_needed ? timing::summarize(ratios).median : pooled_factor);
  return factors;
}

std::vector<double> once_timed_factors_of(const SessionResult& history, size_t own_needed) {
  std::vector<std::vector<double>> ratios;
  for (const TaskOutcome& outcome : history.tasks) ratios.push_back(outcome.candidates.retiming_ratios());
  return once_timed_factors(ratios, own_needed);
}

}  // namespace layoutopt::tuning
