#pragma once
// A lower bound for PBQP from the LP dual of the problem (internal).
//
// Messages reparametrise the costs without changing any assignment's total: node costs
// gain phi(e,v), edge costs lose phi(e,u)(i) + phi(e,v)(j). For every reparametrisation
//   bound = sum_v min_i c'_v(i) + sum_e min_ij c'_e(i,j)  <=  optimum.
// Sequential passes in the style of TRW-S / SRMP (Kolmogorov) raise the bound monotonically:
// a node first collects each edge's min-marginals, then hands equal shares of its costs to
// the edges pointing forward in the pass direction. Forbidden (infinite) candidates that can
// never be completed are detected on the way and marked dead.
//
// Besides the bound this gives (a) reduced costs: any assignment using candidate i of v
// costs at least bound + reduced_cost(v, i), used to prune candidates in branch-and-bound;
// (b) a rounding of the dual into a good primal assignment; and (c) the reparametrised node
// costs, which rank each node's candidates for the primal heuristics.
//
// Edge matrices are used in compressed form (pbqp/compressed_matrix.h), one per distinct
// matrix, because message updates are nearly all of the solver's time on dense cores.

#include <memory>
#include <unordered_map>
#include <vector>

#include "pbqp/compressed_matrix.h"
#include "pbqp/pbqp_graph.h"
#include "stopwatch.h"

namespace layoutopt::solvers::pbqp {

class DualBound {
 public:
  explicit DualBound(const PbqpGraph& graph);

  /// Runs forward/backward passes until the bound stalls, reaches `enough`, the iteration
  /// cap or the deadline. Returns the bound (kInfinity when the graph is infeasible).
  Cost run(int max_iterations, Cost enough, const Deadline& deadline);
  [[nodiscard]] Cost bound() const { return bound_; }
  [[nodiscard]] int iterations() const { return iterations_; }

  /// c'_v(i) - min_k c'_v(k) for a local node id; kInfinity for dead candidates.
  [[nodiscard]] Cost reduced_cost(int v, int i) const;
  /// Assigns the alive nodes greedily in pass order using the messages (Problem ids).
  void round(Assignment& assignment) const;
  /// c'_v: the node's costs plus its incoming messages (infinite for dead candidates).
  [[nodiscard]] Vector node_costs(int v) const;

 private:
  /// node_costs(v) written to the head of `workspace` (same sums in the same order), so the
  /// passes and the bound, which need it for every node on every iteration, never allocate.
  Eigen::VectorBlock<Vector> node_costs_into(int v, Vector& workspace) const;
  [[nodiscard]] Vector& phi(int e, int v) { return graph_.edge(e).u == v ? phi_u_[e] : phi_v_[e]; }
  [[nodiscard]] const Vector& phi(int e, int v) const { return graph_.edge(e).u == v ? phi_u_[e] : phi_v_[e]; }
  void collect(int e, int v);
  void update_node(int v, bool forward);
  [[nodiscard]] Cost compute_bound() const;

  const PbqpGraph& graph_;
  std::vector<int> order_;     // alive nodes in pass order
  std::vector<int> position_;  // index in order_, by local id
  std::vector<int> later_;     // neighbours after the node in order_, by local id
  std::vector<Vector> unary_;  // node costs, with infinities for dead candidates
  std::vector<Vector> phi_u_;  // per edge: message into its u end
  std::vector<Vector> phi_v_;  // per edge: message into its v end
  std::vector<const CompressedMatrix*> compressed_;  // per edge slot
  std::unordered_map<const Matrix*, std::unique_ptr<CompressedMatrix>> by_matrix_;
  // Workspaces sized for the widest node, so message updates never allocate.
  mutable Vector fresh_;
  mutable Vector total_;
  Cost bound_ = -kInfinity;
  int iterations_ = 0;
};

}  // namespace layoutopt::solvers::pbqp
