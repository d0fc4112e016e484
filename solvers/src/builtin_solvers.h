#pragma once
// Constructors of the solvers behind make_solver() (internal; one per source file).

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

}  // namespace layoutopt::solvers
