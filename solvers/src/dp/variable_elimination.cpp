#include "dp/variable_elimination.h"

namespace layoutopt::solvers::dp {

VariableElimination::VariableElimination(const Problem& problem)
    : problem_(problem), containing_(problem.node_count()) {
  for (size_t v = 0; v < problem.node_count(); ++v) {
    candidates_.push_back(problem.candidates(static_cast<int>(v)));
    add(Factor::unary(static_cast<int>(v), problem.node(static_cast<int>(v)).costs));
  }
  for (const Edge& edge : problem.edges()) add(Factor::pairwise(edge));
}

Cost VariableElimination::run(const std::vector<int>& order) {
  buckets_.assign(problem_.node_count(), {});
  for (int v : order) {
    std::vector<const Factor*>& bucket = buckets_[v];
    for (int f : containing_[v])
      if (!consumed_[f]) {
        bucket.push_back(&factors_[f]);
        consumed_[f] = 1;
      }
    Factor message = eliminate(bucket, v, candidates_);
    if (message.scope.empty())
      optimum_ += message.table.front();  // a component finished: its optimum is a constant
    else
      add(std::move(message));
  }
  return optimum_;
}

Assignment VariableElimination::recover(const std::vector<int>& order) const {
  Assignment assignment(problem_.node_count(), 0);
  for (auto v = order.rbegin(); v != order.rend(); ++v)
    assignment[*v] = best_choice(buckets_[*v], *v, candidates_[*v], assignment);
  return assignment;
}

void VariableElimination::add(Factor factor) {
  for (int v : factor.scope) containing_[v].push_back(static_cast<int>(factors_.size()));
  factors_.push_back(std::move(factor));
  consumed_.push_back(0);
}

}  // namespace layoutopt::solvers::dp
