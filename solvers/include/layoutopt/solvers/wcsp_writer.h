#pragma once
// Export to toulbar2's weighted-CSP format (.wcsp), so an independent exact solver can check
// our optima. wcsp costs are non-negative integers: costs are multiplied by `scale` and
// rounded; forbidden entries become the format's "top" cost.

#include <ostream>

#include "layoutopt/solvers/problem.h"

namespace layoutopt::solvers {

/// Throws SolverError on negative costs (the format cannot express them).
void write_wcsp(const Problem& problem, std::ostream& out, double scale = 1e6);

}  // namespace layoutopt::solvers
