#include "layoutopt/measure/layout_candidates.h"

#include <algorithm>
#include <stdexcept>

namespace layoutopt::measure {

LayoutCandidates::LayoutCandidates(size_t top_k) : top_k_(top_k) {
  if (top_k == 0) throw std::invalid_argument("LayoutCandidates: top_k must be at least 1");
}

void LayoutCandidates::add(const LayoutCandidate& candidate) {
  auto& kept = by_pair_[{candidate.layouts.input.str(), candidate.layouts.output.str()}];
  const auto same = std::find_if(kept.begin(), kept.end(), [&](const auto& c) { return c.index == candidate.index; });
  if (same != kept.end()) {
    same->seconds = std::min(same->seconds, candidate.seconds);
  } else {
    kept.push_back(candidate);
  }
  std::stable_sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) { return a.seconds < b.seconds; });
  if (kept.size() > top_k_) kept.resize(top_k_);
}

std::vector<LayoutCandidate> LayoutCandidates::all() const {
  std::vector<LayoutCandidate> result;
  for (const auto& [pair, kept] : by_pair_) result.insert(result.end(), kept.begin(), kept.end());
  return result;
}

}  // namespace layoutopt::measure
