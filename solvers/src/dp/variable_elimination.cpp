#include "dp/variable_elimination.h"

#include <algorithm>
#include <cassert>
#include <numeric>

#include "layoutopt/solvers/error.h"

namespace layoutopt::solvers::dp {

VariableElimination::VariableElimination(const Problem& problem)
    : problem_(problem), variable_(problem.node_count()), node_(problem.node_count()), containing_(problem.node_count()) {
  std::iota(node_.begin(), node_.end(), 0);
  std::ranges::stable_sort(node_, {}, [&](int v) { return problem.candidates(v); });
  for (size_t x = 0; x < node_.size(); ++x) {
    variable_[node_[x]] = static_cast<int>(x);
    candidates_.push_back(problem.candidates(node_[x]));
    if (candidates_.back() > kMaxChoiceCandidates)
      throw SolverError("dp: node '" + problem.node(node_[x]).name + "' has " + std::to_string(candidates_.back()) +
                        " candidates, more than the " + std::to_string(kMaxChoiceCandidates) +
                        " its back-tracking records can name");
  }
  for (size_t x = 0; x < node_.size(); ++x) add(Factor::unary(static_cast<int>(x), problem.node(node_[x]).costs));
  for (const Edge& edge : problem.edges()) add(Factor::pairwise({variable_[edge.from], variable_[edge.to], edge.costs}));
}

Cost VariableElimination::run(const std::vector<int>& order) {
  backtrack_.assign(problem_.node_count(), {});
  for (int node : order) {
    const int v = variable_[node];
    assert(backtrack_[v].choices.empty() && "run: a node appears twice in the elimination order");
    std::vector<int> bucket;
    for (int f : containing_[v])
      if (!consumed_[f]) {
        bucket.push_back(f);
        consumed_[f] = 1;
      }
    // Its own cost vector at least, unless an earlier bucket swallowed it: which would mean a
    // message mentioned an eliminated variable.
    assert(!bucket.empty() && "run: a variable without factors");
    std::vector<const Factor*> factors;
    for (int f : bucket) factors.push_back(&factors_[f]);
    Backtrack& record = backtrack_[v];
    Factor message = eliminate(factors, v, candidates_, &record.choices);
    record.scope = message.scope;
    for ([[maybe_unused]] int w : message.scope)
      assert(backtrack_[w].choices.empty() && "run: a message mentions an eliminated variable");
    for (int f : bucket) std::vector<Cost>().swap(factors_[f].table);  // consumed: only the choices are kept
    if (message.scope.empty())
      optimum_ += message.table.front();  // a component finished: its optimum is a constant
    else
      add(std::move(message));
  }
  return optimum_;
}

Assignment VariableElimination::recover(const std::vector<int>& order) const {
  Assignment by_variable(problem_.node_count(), 0);
  for (auto node = order.rbegin(); node != order.rend(); ++node) {
    const int v = variable_[*node];
    const Backtrack& record = backtrack_[v];
    size_t index = 0;  // of the message entry for the later variables' choices
    for (int w : record.scope)
      index = index * static_cast<size_t>(candidates_[w]) + static_cast<size_t>(by_variable[w]);
    assert(index < record.choices.size() && "recover: a choice outside the recorded table");
    by_variable[v] = record.choices[index];
  }
  Assignment assignment(problem_.node_count(), 0);
  for (size_t x = 0; x < node_.size(); ++x) assignment[node_[x]] = by_variable[x];
  return assignment;
}

void VariableElimination::add(Factor factor) {
  for (int v : factor.scope) containing_[v].push_back(static_cast<int>(factors_.size()));
  factors_.push_back(std::move(factor));
  consumed_.push_back(0);
}

}  // namespace layoutopt::solvers::dp
