#pragma once
// Repricing: where a measured cost source departs from what its records and transform table
// say, as the checks of the plan step found it (config_confirmation.h,
// network_calibration.h). The checks return it and the next source is built with it, so a
// source never changes once built and two sources of the same inputs price alike.

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "layoutopt/costs/transform_table.h"
#include "layoutopt/graph/graph.h"
#include "layoutopt/layout/layout.h"
#include "layoutopt/planning/cost_source.h"
#include "layoutopt/planning/kernel_choice.h"
#include "layoutopt/planning/plan.h"

namespace layoutopt::costs {

/// A task whose logged timings came from another state of the host (config_confirmation.h).
struct StaleTask {
  double drift = 1.0;        ///< how far its timings drifted since they were logged
  std::set<int64_t> fresh;   ///< configs timed since: their own timings price them
};

/// Which of a node's candidates ran: its kernel and layouts (its label is for people).
struct CandidateId {
  planning::KernelChoice kernel;
  std::vector<layout::Layout> inputs;
  layout::Layout output;
  auto operator<=>(const CandidateId&) const = default;
};

[[nodiscard]] inline CandidateId candidate_id(const planning::NodeCandidate& c) { return {c.kernel, c.inputs, c.output}; }
[[nodiscard]] inline CandidateId candidate_id(const planning::PlanNode& n) { return {n.kernel, n.inputs, n.output}; }

/// How a node ran inside compiled networks: per candidate that ran, its
/// in-network time over its isolated price, the fastest of the rounds that ran it; and the
/// factor of the candidate that ran last. Why the last for the others: what slows a node in
/// a network (an input its producer left in memory, an output written over a cold arena
/// slot) scales with the bytes it moves, which its candidates share. Why each candidate's
/// own once it ran: candidates that read or write other blocks than their neighbours do not
/// share all of it, and a factor carried over from another would keep a plan on a
/// candidate that runs slower in the network than its price says.
struct InNetworkNode {
  std::map<CandidateId, double> ran;  ///< candidate -> factor
  double latest = 1.0;

  /// The factor of `candidate`.
  [[nodiscard]] double factor_of(const CandidateId& candidate) const {
    const auto found = ran.find(candidate);
    return found != ran.end() ? found->second : latest;
  }
};

struct Repricing {
  /// Stale tasks by position among the graph's tasks (tuning::extract_tasks): their configs
  /// not in `fresh` cost `drift` times what their timings say, so a stale-fast rival does not
  /// undercut a config timed afresh.
  std::map<size_t, StaleTask> stale_tasks;
  /// Transforms priced by their time inside a compiled network instead of the table's. Every
  /// other transform costs its table time times the median ratio of these to their table
  /// times: a table that prices transforms at half what networks pay would make every
  /// untried transform look cheap.
  InNetworkTransformTimes in_network_transforms;
  /// Nodes timed inside a compiled network: each of their candidates costs its own price
  /// times its factor (InNetworkNode::factor_of).
  std::map<graph::NodeId, InNetworkNode> in_network_nodes;
};

}  // namespace layoutopt::costs
