// Fuzz target: an instance file as `layoutopt solve` reads it (problem_from_json), saved and
// read again (costs must survive bit for bit), then solved by pbqp and dp under
// deterministic limits: every problem the reader accepts is one the solvers can take, and a
// feasible answer's cost is what the problem says that assignment costs. Rejections are
// SolverError (the reader's, or a solver refusing an instance over its budget).
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "fuzz_input.h"
#include "layoutopt/solvers/error.h"
#include "layoutopt/solvers/instance_io.h"
#include "layoutopt/solvers/solver.h"

namespace {

using namespace layoutopt::solvers;

void check_solution(const Problem& problem, const Solution& solution) {
  if (solution.assignment.size() != problem.node_count()) std::abort();
  if (!solution.feasible) return;
  // Solvers may sum the same costs in another order: equal to rounding.
  const Cost evaluated = problem.evaluate(solution.assignment);
  if (std::abs(evaluated - solution.cost) > 1e-9 * std::max(1.0, std::abs(evaluated))) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::optional<nlohmann::json> document = layoutopt::fuzz::parse_json(data, size);
  if (!document) return 0;
  layoutopt::fuzz::rejecting_only<SolverError>([&] {
    const Problem problem = problem_from_json(*document, "fuzz.instance.json");
    const nlohmann::json saved = problem_to_json(problem);
    if (problem_to_json(problem_from_json(saved)) != saved) std::abort();  // lost in the round trip
    // Deterministic and small: a search-node cap instead of a clock, 64 MB for dp's tables.
    const SolveOptions options{.time_limit_seconds = kNoTimeLimit, .max_search_nodes = 2000,
                               .memory_budget_bytes = size_t{64} << 20};
    for (const char* solver : {"pbqp", "dp"}) check_solution(problem, make_solver(solver)->solve(problem, options));
  });
  return 0;
}
