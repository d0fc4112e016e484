#include "layoutopt/costs/network_slowdown.h"

namespace layoutopt::costs {

std::optional<double> network_slowdown(const std::map<graph::NodeId, NodeTiming>& timed,
                                       const std::map<graph::NodeId, InNetworkNode>& earlier) {
  double all_ms = 0, overlap_ms = 0, earlier_ms = 0;
  for (const auto& [id, node] : timed) {
    all_ms += node.ms;
    const auto known = earlier.find(id);
    if (known == earlier.end() || node.factor <= 0) continue;
    const auto ran = known->second.ran.find(node.candidate);
    if (ran == known->second.ran.end()) continue;
    overlap_ms += node.ms;
    earlier_ms += node.ms / node.factor * ran->second;  // isolated price times the earlier factor
  }
  if (all_ms <= 0 || earlier_ms <= 0 || overlap_ms < kSlowdownMinOverlap * all_ms) return std::nullopt;
  return overlap_ms / earlier_ms;
}

}  // namespace layoutopt::costs
