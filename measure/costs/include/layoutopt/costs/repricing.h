#pragma once
// Repricing: where a measured cost source departs from what its records and transform table
// say, as the checks of the plan step found it (config_confirmation.h,
// network_calibration.h). The checks return it and the next source is built with it, so a
// source never changes once built and two sources of the same inputs price alike.

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>

#include "layoutopt/costs/transform_table.h"
#include "layoutopt/graph/graph.h"

namespace layoutopt::costs {

/// A task whose logged timings came from another state of the host (config_confirmation.h).
struct StaleTask {
  double drift = 1.0;        ///< how far its timings drifted since they were logged
  std::set<int64_t> fresh;   ///< configs timed since: their own timings price them
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
  /// Nodes whose candidates cost their own price times the node's factor: the time the node
  /// took inside a compiled network over the price of the candidate that ran there. Why one
  /// factor for all of a node's candidates: what slows a node in a network (its input left in
  /// another cache level by its producer, its output written over a cold arena slot) scales
  /// with the bytes it moves, which its candidates share, so the isolated ranking stands.
  std::map<graph::NodeId, double> in_network_nodes;
};

}  // namespace layoutopt::costs
