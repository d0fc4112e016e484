#pragma once
// The record of eliminated nodes that lets PBQP recover a full assignment (internal).
// Nodes are eliminated in order; back-propagation visits them in reverse, when the choices
// of all their (later eliminated) neighbours are known, and picks the best candidate given
// those choices - or the candidate fixed by an RN / branching decision.

#include <vector>

#include "layoutopt/solvers/cost.h"

namespace layoutopt::solvers::pbqp {

struct Elimination {
  struct Link {
    int neighbor = 0;  ///< Problem node id
    MatrixPtr costs;
    bool node_is_row = true;  ///< whether the eliminated node indexes the rows of `costs`
  };
  int node = 0;  ///< Problem node id
  Vector costs;  ///< the node's cost vector at elimination time
  std::vector<Link> links;
  int fixed = -1;  ///< >= 0 when the choice was imposed (RN or branching)
};

class ReductionTrace {
 public:
  void record(Elimination elimination) { steps_.push_back(std::move(elimination)); }
  /// Cost that left the graph with R0 nodes and fixed nodes; part of every solution's cost.
  void add_constant(Cost cost) { constant_ += cost; }
  [[nodiscard]] Cost constant() const { return constant_; }
  [[nodiscard]] size_t size() const { return steps_.size(); }

  /// Fills `assignment` (indexed by Problem node id) for every eliminated node.
  void back_propagate(Assignment& assignment) const;

 private:
  std::vector<Elimination> steps_;
  Cost constant_ = 0;
};

}  // namespace layoutopt::solvers::pbqp
