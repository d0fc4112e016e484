// exact: depth-first enumeration of all assignments, pruned only by the cost so far (all
// costs are counted when both ends are assigned). Deliberately simple and independent of the
// other solvers: it is the ground truth in tests. Refuses large search spaces up front.

#include <cmath>

#include "builtin_solvers.h"
#include "layoutopt/solvers/error.h"
#include "stopwatch.h"

namespace layoutopt::solvers {

namespace {

class Enumeration {
 public:
  explicit Enumeration(const Problem& problem)
      : problem_(problem), current_(problem.node_count(), 0), best_(problem.node_count(), 0) {}

  void run() { visit(0, 0.0); }
  [[nodiscard]] const Assignment& best() const { return best_; }
  [[nodiscard]] Cost best_cost() const { return best_cost_; }

 private:
  // Cost added by choosing `i` for node v, given the choices of nodes < v.
  Cost added_cost(int v, int i) const {
    Cost total = problem_.node(v).costs[i];
    for (int e : problem_.incident(v)) {
      const Edge& edge = problem_.edges()[e];
      const int other = edge.from == v ? edge.to : edge.from;
      if (other > v) continue;
      total += edge.from == v ? (*edge.costs)(i, current_[other]) : (*edge.costs)(current_[other], i);
    }
    return total;
  }

  void visit(int v, Cost so_far) {
    if (v == static_cast<int>(problem_.node_count())) {
      if (so_far < best_cost_ || !found_) {
        best_cost_ = so_far;
        best_ = current_;
        found_ = true;
      }
      return;
    }
    for (int i = 0; i < problem_.candidates(v); ++i) {
      current_[v] = i;
      const Cost total = so_far + added_cost(v, i);
      if (found_ && !(total < best_cost_)) continue;
      visit(v + 1, total);
    }
  }

  const Problem& problem_;
  Assignment current_;
  Assignment best_;
  Cost best_cost_ = kInfinity;
  bool found_ = false;
};

class ExactSolver final : public Solver {
 public:
  [[nodiscard]] std::string_view name() const override { return "exact"; }

  [[nodiscard]] Solution solve(const Problem& problem, const SolveOptions& options) const override {
    const double limit = static_cast<double>(options.exact_max_assignments);
    if (problem.log10_search_space() > std::log10(limit) + 1e-9)
      throw SolverError("exact solver refuses this instance: 10^" + std::to_string(problem.log10_search_space()) +
                        " assignments exceed the limit of " + std::to_string(options.exact_max_assignments) +
                        " (use --solver dp or pbqp)");
    const Stopwatch clock;
    Enumeration enumeration(problem);
    enumeration.run();
    Solution solution;
    solution.assignment = enumeration.best();
    finish_solution(problem, solution);
    solution.optimal = true;
    solution.lower_bound = solution.cost;
    solution.seconds = clock.seconds();
    return solution;
  }
};

}  // namespace

std::unique_ptr<Solver> make_exact_solver() { return std::make_unique<ExactSolver>(); }

}  // namespace layoutopt::solvers
