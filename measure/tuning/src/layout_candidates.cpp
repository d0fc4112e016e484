#include "layoutopt/tuning/layout_candidates.h"

#include <algorithm>
#include <span>
#include <stdexcept>

#include "layoutopt/timing/statistics.h"

namespace layoutopt::tuning {

namespace {

/// The median of the latest kLatestTimings timings after the tuning timing (at least one).
double median_of_later(const std::vector<double>& seconds) {
  const size_t later = std::min(seconds.size() - 1, kLatestTimings);
  return timing::summarize(std::span<const double>(seconds).last(later)).median;
}

}  // namespace

LayoutCandidates::LayoutCandidates(size_t top_k) : top_k_(top_k) {
  if (top_k == 0) throw std::invalid_argument("LayoutCandidates: top_k must be at least 1");
}

void LayoutCandidates::add(const LayoutCandidate& candidate) {
  auto& configs = by_pair_[{candidate.layouts.input.str(), candidate.layouts.output.str()}];
  Timed& timed = configs.try_emplace(candidate.index, Timed{candidate.layouts, {}}).first->second;
  timed.seconds.push_back(candidate.seconds);
}

double LayoutCandidates::Timed::estimate(int64_t index, const CandidatePricing& pricing) const {
  const double timed = seconds.size() > 1 ? median_of_later(seconds) : seconds.front() * pricing.once_timed_factor;
  return pricing.fresh.contains(index) ? timed : timed * pricing.stale_factor;
}

std::vector<double> LayoutCandidates::retiming_ratios() const {
  std::vector<double> ratios;
  for (const auto& [pair, configs] : by_pair_)
    for (const auto& [index, timed] : configs)
      if (timed.seconds.size() > 1 && timed.seconds.front() > 0)
        ratios.push_back(median_of_later(timed.seconds) / timed.seconds.front());
  return ratios;
}

std::vector<LayoutCandidate> LayoutCandidates::all(const CandidatePricing& pricing) const {
  std::vector<LayoutCandidate> result;
  for (const auto& [pair, configs] : by_pair_) {
    std::vector<LayoutCandidate> ranked;
    for (const auto& [index, timed] : configs)
      ranked.push_back({index, timed.estimate(index, pricing), timed.layouts, static_cast<int>(timed.seconds.size())});
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.seconds < b.seconds; });
    if (ranked.size() > top_k_) ranked.resize(top_k_);
    result.insert(result.end(), ranked.begin(), ranked.end());
  }
  return result;
}

std::optional<double> LayoutCandidates::estimated_seconds(int64_t index, const CandidatePricing& pricing) const {
  for (const auto& [pair, configs] : by_pair_)
    if (const auto found = configs.find(index); found != configs.end()) return found->second.estimate(index, pricing);
  return std::nullopt;
}

}  // namespace layoutopt::tuning
