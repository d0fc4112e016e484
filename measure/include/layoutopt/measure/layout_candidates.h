#pragma once
// LayoutCandidates: the best configs of one task per distinct (input layout, output layout)
// pair. The graph solver chooses layouts, not kernels: it needs the cheapest kernel for
// every layout pair a task can run in, not only the single fastest config.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "layoutopt/kernels/tunable_op.h"

namespace layoutopt::measure {

struct LayoutCandidate {
  int64_t index = 0;     ///< config index
  double seconds = 0;    ///< measured cost
  kernels::OpLayouts layouts;
};

class LayoutCandidates {
 public:
  /// Keeps up to `top_k` configs per layout pair (top_k >= 1).
  explicit LayoutCandidates(size_t top_k = 3);

  /// Offers a measured config; kept when among the top_k of its pair. A config offered
  /// twice keeps its better time.
  void add(const LayoutCandidate& candidate);

  /// Every kept candidate, by layout pair (input, output), each pair sorted fastest first.
  [[nodiscard]] std::vector<LayoutCandidate> all() const;
  /// Distinct (input, output) layout pairs seen.
  [[nodiscard]] size_t pair_count() const { return by_pair_.size(); }

 private:
  size_t top_k_;
  std::map<std::pair<std::string, std::string>, std::vector<LayoutCandidate>> by_pair_;
};

}  // namespace layoutopt::measure
