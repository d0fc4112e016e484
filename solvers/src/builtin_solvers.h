#pragma once
// Constructors of the solvers behind make_solver() (internal; one per source file).

#include <functional>
#include <memory>

#include "layoutopt/solvers/solver.h"

namespace layoutopt::solvers {

std::unique_ptr<Solver> make_greedy_solver();
std::unique_ptr<Solver> make_exact_solver();
std::unique_ptr<Solver> make_dp_solver();
std::unique_ptr<Solver> make_pbqp_solver();
std::unique_ptr<Solver> make_toulbar2_solver();

/// Fills cost / feasible from the assignment; shared epilogue of every solver.
void finish_solution(const Problem& problem, Solution& solution);

/// Runs `solve` on `problem` without its dominated candidates (when options.drop_dominated)
/// and maps the answer back: the assignment indexes the original candidates, the time
/// includes the reduction, and stats gain removed_candidates and ms_dominance.
Solution solve_without_dominated(const Problem& problem, const SolveOptions& options,
                                 const std::function<Solution(const Problem&)>& solve);

}  // namespace layoutopt::solvers
