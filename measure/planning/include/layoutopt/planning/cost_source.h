#pragma once
// Where the layout-assignment problem gets its numbers: the ways to run each node (with the
// layouts each way reads and writes) and the time of each layout transform. Measured costs
// (tuning records and the transform table) and the analytic model implement the same
// interface, so the problem builder and the solvers never know which one they got.

#include <string>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/layout/layout.h"
#include "layoutopt/planning/kernel_choice.h"

namespace layoutopt::planning {

/// One way to run a node.
struct NodeCandidate {
  /// Layout required of each activation input (the node's inputs that are not parameters,
  /// in input order). A residual input is listed like any other.
  std::vector<layout::Layout> inputs;
  layout::Layout output;
  double ms = 0.0;
  std::string label;    ///< what a person reads: "tile_ic=16 tile_oc=32 tile_ow=14"
  KernelChoice kernel;  ///< the kernel this way runs: a tuned config, a flexible op's schedule, ...
};

class CostSource {
 public:
  virtual ~CostSource() = default;
  [[nodiscard]] virtual std::string name() const = 0;
  /// Every way to run node `id`; never empty for a node the graph can run.
  [[nodiscard]] virtual std::vector<NodeCandidate> candidates(const graph::Graph& graph, graph::NodeId id) const = 0;
  /// Time to convert a tensor of logical shape `shape` between two layouts; 0 when both
  /// place every element at the same offset.
  [[nodiscard]] virtual double transform_ms(const graph::Shape& shape, const layout::Layout& from,
                                            const layout::Layout& to) const = 0;
  /// What the source scales node `id`'s isolated prices by (in-network calibration,
  /// costs/network_calibration.h); 1 where it prices nodes as timed alone. A source that
  /// narrows another's candidates applies it to the prices it makes itself.
  [[nodiscard]] virtual double node_price_factor(graph::NodeId id) const {
    (void)id;
    return 1.0;
  }
};

using graph::activation_inputs;

}  // namespace layoutopt::planning
