#pragma once
// Turns a graph and a CostSource into the solvers' cost problem, and a solution back into
// per-node choices and the transforms to insert. This is layout assignment as data: every
// constraint is a cost entry, every choice a candidate.
//
// Structure of the problem:
//  - one decision node per graph node, one candidate per distinct (input layouts, output
//    layout) signature: only the cheapest candidate of a signature can be optimal, so the
//    others are dropped before solving;
//  - a tensor read by exactly one node: an edge producer -> reader whose entries are the
//    transform times between the producer's output layout and the reader's input layout;
//  - a tensor read several times (or also a graph output): one hub node whose candidates are
//    the sets of layouts to materialize (at most one per reader). The producer edge charges
//    each transform in the set once; each reader edge forbids wanting a layout outside it.
//    So a transform shared by several readers is paid once, exactly as at run time, and a
//    residual block stays series-parallel: the hub links producer and readers as one node,
//    so R0/RI/RII reduce a resnet completely. When the sets would be too many (many readers
//    and layouts), one binary node per layout ("materialized or not") does the same job.
//  - graph inputs arrive and graph outputs leave in canonical layout (NCHW / NC): each is a
//    single-candidate node ("input:data", "output:fc"), so every tensor has a producer node
//    and every use a reader node, and one rule connects them all.

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "layoutopt/planning/cost_source.h"
#include "layoutopt/solvers/matrix_pool.h"
#include "layoutopt/solvers/problem.h"

namespace layoutopt::planning {

/// A layout conversion the chosen assignment needs at run time.
struct TensorTransform {
  graph::ValueId value = -1;
  layout::Layout from, to;
  double ms = 0.0;
};

/// A solution read back in graph terms.
struct LayoutAssignment {
  std::vector<NodeCandidate> choice;  ///< indexed by graph NodeId
  std::vector<TensorTransform> transforms;
  double node_ms = 0.0;
  double transform_ms = 0.0;
  [[nodiscard]] double total_ms() const { return node_ms + transform_ms; }
};

class LayoutProblem {
 public:
  /// Throws std::runtime_error naming the node when the cost source offers no candidate.
  LayoutProblem(const graph::Graph& graph, const CostSource& costs);

  [[nodiscard]] const solvers::Problem& problem() const { return problem_; }
  /// Candidates kept for graph node `id` (after signature pruning), in problem order.
  [[nodiscard]] const std::vector<NodeCandidate>& candidates(graph::NodeId id) const;
  /// Candidates offered by the cost source before pruning, summed over nodes.
  [[nodiscard]] size_t offered_candidates() const { return offered_; }

  /// Reads a solver assignment back, with the transforms it implies timed by `costs`
  /// (the source the problem was built from); throws when it does not fit the problem.
  [[nodiscard]] LayoutAssignment decode(std::span<const int> assignment, const CostSource& costs) const;

 private:
  /// A problem node that produces or reads a tensor, with the layout per candidate.
  struct Endpoint {
    solvers::NodeId node = 0;
    std::vector<layout::Layout> layouts;
  };
  void add_boundary_nodes();
  void add_graph_nodes(const CostSource& costs);
  void connect(graph::ValueId value, const CostSource& costs);
  void connect_pair(const graph::Shape& shape, const Endpoint& producer, const Endpoint& reader,
                    const CostSource& costs);
  void connect_shared(graph::ValueId value, const Endpoint& producer, const std::vector<Endpoint>& readers,
                      const CostSource& costs);
  void connect_hub(graph::ValueId value, const Endpoint& producer, const std::vector<Endpoint>& readers,
                   const std::vector<layout::Layout>& wanted, const std::vector<uint32_t>& sets,
                   const CostSource& costs);
  void connect_materialized(graph::ValueId value, const Endpoint& producer, const std::vector<Endpoint>& readers,
                            const std::vector<layout::Layout>& wanted, const CostSource& costs);
  [[nodiscard]] Endpoint producer_of(graph::ValueId value) const;
  [[nodiscard]] std::vector<Endpoint> readers_of(graph::ValueId value) const;
  [[nodiscard]] std::vector<layout::Layout> chosen_wants(graph::ValueId value, std::span<const int> assignment) const;

  const graph::Graph* graph_;
  solvers::Problem problem_;
  solvers::MatrixPool matrices_;
  std::vector<std::vector<NodeCandidate>> candidates_;  // by graph node
  std::vector<solvers::NodeId> decision_of_;             // graph node -> problem node
  std::vector<solvers::NodeId> input_node_;              // graph input index -> problem node
  std::vector<solvers::NodeId> output_node_;             // graph output index -> problem node
  std::vector<std::vector<std::pair<graph::NodeId, size_t>>> uses_;  // value -> (reader, slot)
  size_t offered_ = 0;
};

/// Keeps the cheapest candidate of every distinct (inputs, output) signature, ordered by cost.
[[nodiscard]] std::vector<NodeCandidate> cheapest_per_signature(std::vector<NodeCandidate> candidates);

}  // namespace layoutopt::planning
