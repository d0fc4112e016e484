#include "pbqp/reduction_trace.h"

#include <cassert>

namespace layoutopt::solvers::pbqp {

namespace {

int best_given_neighbors(const Elimination& step, const Assignment& assignment) {
  int best = 0;
  Cost best_cost = kInfinity;
  for (int i = 0; i < step.costs.size(); ++i) {
    Cost total = step.costs[i];
    for (const Elimination::Link& link : step.links) {
      const int j = assignment[link.neighbor];
      assert((link.node_is_row ? link.costs->rows() : link.costs->cols()) == step.costs.size() &&
             "back-propagation: edge matrix does not match the eliminated node's candidates");
      assert(0 <= j && j < (link.node_is_row ? link.costs->cols() : link.costs->rows()) &&
             "back-propagation: a neighbour's choice is out of its edge's range");
      total += link.node_is_row ? (*link.costs)(i, j) : (*link.costs)(j, i);
    }
    if (total < best_cost) {
      best_cost = total;
      best = i;
    }
  }
  return best;
}

}  // namespace

void ReductionTrace::back_propagate(Assignment& assignment) const {
  for (auto step = steps_.rbegin(); step != steps_.rend(); ++step)
    assignment[step->node] = step->fixed >= 0 ? step->fixed : best_given_neighbors(*step, assignment);
}

}  // namespace layoutopt::solvers::pbqp
