#include "layoutopt/measure/layout_candidates.h"

#include <algorithm>
#include <stdexcept>

#include "layoutopt/measure/statistics.h"

namespace layoutopt::measure {

LayoutCandidates::LayoutCandidates(size_t top_k) : top_k_(top_k) {
  if (top_k == 0) throw std::invalid_argument("LayoutCandidates: top_k must be at least 1");
}

void LayoutCandidates::add(const LayoutCandidate& candidate) {
  auto& configs = by_pair_[{candidate.layouts.input.str(), candidate.layouts.output.str()}];
  Timed& timed = configs.try_emplace(candidate.index, Timed{candidate.layouts, {}}).first->second;
  timed.seconds.push_back(candidate.seconds);
}

std::vector<LayoutCandidate> LayoutCandidates::all() const {
  std::vector<LayoutCandidate> result;
  for (const auto& [pair, configs] : by_pair_) {
    std::vector<LayoutCandidate> ranked;
    for (const auto& [index, timed] : configs)
      ranked.push_back({index, summarize(timed.seconds).median, timed.layouts, static_cast<int>(timed.seconds.size())});
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.seconds < b.seconds; });
    if (ranked.size() > top_k_) ranked.resize(top_k_);
    result.insert(result.end(), ranked.begin(), ranked.end());
  }
  return result;
}

}  // namespace layoutopt::measure
