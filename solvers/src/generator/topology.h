#pragma once
// Wiring of generated instances (internal): which nodes feed which, per network family.
// Returns directed edges (from < to, a DAG in node order) over exactly `nodes` nodes.

#include <random>
#include <utility>
#include <vector>

#include "layoutopt/solvers/generator.h"

namespace layoutopt::solvers::generator {

using Wiring = std::vector<std::pair<int, int>>;

[[nodiscard]] Wiring wire(Structure structure, int nodes, std::mt19937_64& random);

}  // namespace layoutopt::solvers::generator
