#pragma once
// Exact min-sum variable elimination along a given order (internal): bucket elimination
// with back-tracking. Used by the dp solver on whole problems and by PBQP's
// branch-and-bound on components that pruning has made narrow enough.
//
// Internally variables are numbered by candidate count (fewest first), and factor tables
// order their variables by that number: the variables with the most candidates vary
// fastest, which makes the contiguous runs eliminate() adds long. Numbered by node id,
// a binary "materialise this layout" node could end up innermost and cut every run to 2.

#include <deque>
#include <vector>

#include "dp/factor.h"
#include "layoutopt/solvers/problem.h"

namespace layoutopt::solvers::dp {

class VariableElimination {
 public:
  explicit VariableElimination(const Problem& problem);

  /// Eliminates every variable in `order`; returns the optimum (kInfinity when infeasible).
  /// A factor's table is freed once its bucket is eliminated: what back-tracking needs of a
  /// bucket is only the minimising candidate per entry (Choices), so dp holds the live
  /// messages plus two bytes per message entry, not every message.
  Cost run(const std::vector<int>& order);
  /// Back-tracking after run(): latest eliminated first, each from its recorded choices.
  [[nodiscard]] Assignment recover(const std::vector<int>& order) const;

 private:
  // What back-tracking needs of one eliminated variable: its choice for every joint choice
  // of the variables its message spanned (row-major over `scope`, as the message was).
  struct Backtrack {
    std::vector<int> scope;
    Choices choices;
  };

  void add(Factor factor);

  const Problem& problem_;
  std::vector<int> variable_;      // by node id: its variable number
  std::vector<int> node_;          // by variable number: its node id
  std::vector<int> candidates_;    // by variable number
  std::deque<Factor> factors_;  // deque: bucket pointers stay valid as factors are added
  std::vector<char> consumed_;
  std::vector<std::vector<int>> containing_;
  std::vector<Backtrack> backtrack_;  // by variable number
  Cost optimum_ = 0;
};

}  // namespace layoutopt::solvers::dp
