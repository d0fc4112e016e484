#include "pbqp/reduction_trace.h"

namespace layoutopt::solvers::pbqp {

namespace {

int best_given_neighbors(const Elimination& step, const Assignment& assignment) {
  int best = 0;
  Cost best_cost = kInfinity;
  for (int i = 0; i < step.costs.size(); ++i) {
    Cost total = step.costs[i];
    for (const Elimination::Link& link : step.links) {
      const int j = assignment[link.neighbor];
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
