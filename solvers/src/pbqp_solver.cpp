// pbqp: reductions R0/RI/RII; a core narrow enough for exact elimination is solved exactly
// (pbqp/exact_component.h). Otherwise RN heuristic + local search for a first incumbent, then a
// short dual phase on the irreducible core (bound, rounding, fusion: pbqp/fusion.h) that
// usually lands on or next to the optimum, then a proof (the core eliminated whole where its
// tables fit, else branch-and-bound: pbqp/branch_and_bound.h) for a bounded time. Every
// answer carries a lower bound: optimal, or the gap to it.

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

#include "builtin_solvers.h"
#include "layoutopt/solvers/candidate_reduction.h"
#include "pbqp/branch_and_bound.h"
#include "pbqp/dual_bound.h"
#include "pbqp/exact_component.h"
#include "pbqp/fusion.h"
#include "pbqp/local_search.h"
#include "pbqp/reductions.h"
#include "pbqp/rn_heuristic.h"
#include "stopwatch.h"

namespace layoutopt::solvers {

namespace {

using pbqp::PbqpGraph;

// Dual passes before the first fusion: enough to rank candidates well on zoo cores, a
// fraction of a millisecond each on them.
constexpr int kQuickIterations = 20;
// The fused restriction's elimination work (min-plus terms): a few milliseconds at most
// (about 8 ms with planning on a randomly wired 1,000-node core, where it takes the answer
// from 0.08% above the optimum to 0.02%).
constexpr double kFusionWork = 5e6;
// By default the search only runs where a proof takes milliseconds: cores with few
// candidates per node (the branching factor, and the base of every elimination table) and
// small edge tables. Zoo cores (20 candidates) get the fast answer instead; a proof of their
// last 0.1% can take seconds (SolveOptions::prove_optimality asks for it).
constexpr int kCheapSearchCandidates = 8;
constexpr double kCheapSearchEntries = 2e4;
// A core whose elimination (the cheaper of the min-fill and min-degree orders) takes at most
// this many min-plus terms is solved exactly up front: that costs less than the dual phase
// alone (inception-v3's core: 1.5 ms in all) and the answer is proven. On wide cores
// planning stops as soon as the work passes the budget, so the attempt costs little there.
// The budget bounds the time (a few ms), so like the dual phase's first pass it is not
// interrupted by the time limit.
constexpr double kExactWork = 3e7;
// A conservative rate of min-plus terms per second for dp's elimination (2.4e9 measured on
// big width-4 tables, 3e8 on small ones): whether a proof by elimination fits the time left.
constexpr double kEliminationTermsPerSecond = 3e8;
// Where the answer is not proven by then, the default goes on to prove it for a while: up to
// this many times what the answer took, so a fast answer stays fast, ...
constexpr double kProofEffort = 10.0;
// ... but at least this long, which proves the generated cores a proof closes quickly
// (tens of milliseconds on 100-node dense and grid cores) whatever the answer took ...
constexpr double kProofFloorSeconds = 0.2;
// ... and at most this long: cores that need longer (dense cores of hundreds of nodes take
// minutes, if they close at all) keep the answer and report the gap to the bound.
constexpr double kProofCapSeconds = 1.0;

// The irreducible core: what is left after R0/RI/RII, and how to recover the rest.
struct Core {
  explicit Core(const PbqpGraph& whole) : graph(whole) { counts = pbqp::reduce(graph, trace); }
  // Size of the core's edge tables: what the search's work grows with.
  [[nodiscard]] double entries() const {
    double total = 0;
    for (int v = 0; v < graph.size(); ++v)
      for (int e : graph.incident(v))
        if (graph.edge(e).u == v) total += static_cast<double>(graph.edge(e).costs->size());
    return total;
  }
  [[nodiscard]] int widest() const {
    int most = 0;
    for (int v = 0; v < graph.size(); ++v)
      if (graph.alive(v)) most = std::max(most, graph.candidates(v));
    return most;
  }
  [[nodiscard]] bool cheap_to_search() const {
    return widest() <= kCheapSearchCandidates && entries() <= kCheapSearchEntries;
  }

  PbqpGraph graph;
  pbqp::ReductionTrace trace;
  pbqp::ReductionCounts counts;
};

void describe(const Core& core, Solution& solution) {
  solution.stats["r0"] = core.counts.r0;
  solution.stats["r1"] = core.counts.r1;
  solution.stats["r2"] = core.counts.r2;
  solution.stats["core_nodes"] = core.graph.alive_count();
  solution.stats["core_entries"] = core.entries();
}

// Keeps `candidate` when it is cheaper than the solution's assignment.
void keep_better(const Problem& problem, Assignment candidate, Solution& solution) {
  if (!(problem.evaluate(candidate) < solution.cost)) return;
  solution.assignment = std::move(candidate);
  finish_solution(problem, solution);
}

// Records a phase's wall time in milliseconds (stats "ms_<phase>"), so a researcher can see
// where a solve's time goes, and restarts the lap.
void lap(std::string_view phase, Stopwatch& clock, Solution& solution) {
  solution.stats["ms_" + std::string(phase)] = clock.seconds() * 1e3;
  clock = Stopwatch();
}

// Proven when the bound meets the cost (an infinite bound proves infeasibility).
bool bound_meets_cost(const Solution& solution) {
  const Cost bound = *solution.lower_bound;
  return !(solution.cost > bound + 1e-9 * (1.0 + std::abs(bound)));
}

class PbqpSolver final : public Solver {
 public:
  [[nodiscard]] std::string_view name() const override { return "pbqp"; }

  [[nodiscard]] Solution solve(const Problem& problem, const SolveOptions& options) const override {
    return solve_without_dominated(problem, options, [&](const Problem& reduced) { return run(reduced, options); });
  }

 private:
  static Solution run(const Problem& problem, const SolveOptions& options) {
    const Stopwatch clock;
    Stopwatch phase;
    const Deadline deadline(options.time_limit_seconds);
    const PbqpGraph graph(problem);
    const Core core(graph);
    Solution solution;
    lap("reduce", phase, solution);
    describe(core, solution);
    solution.assignment.assign(problem.node_count(), 0);
    const bool exact = solve_exactly(problem, core, solution);
    lap("exact_attempt", phase, solution);
    if (exact) {
      solution.optimal = true;
      solution.seconds = clock.seconds();
      return solution;
    }
    // The RN incumbent and the dual's passes read the core only and do not need each other,
    // so they run side by side (the dual then cannot stop early on reaching the incumbent,
    // which on cores that reach this point it practically never does).
    pbqp::DualBound dual(core.graph);
#pragma omp parallel sections num_threads(2)
    {
#pragma omp section
      first_incumbent(problem, core, solution);
#pragma omp section
      dual.run(kQuickIterations, kInfinity, deadline);
    }
    lap("incumbent_and_dual", phase, solution);
    improve_with_dual(problem, core, dual, solution);
    lap("fusion", phase, solution);
    solution.optimal = bound_meets_cost(solution);
    if (options.branch_and_bound && !solution.optimal) prove(problem, graph, core, options, clock.seconds(), solution);
    lap("proof", phase, solution);
    solution.seconds = clock.seconds();
    return solution;
  }

  // The proof after an answer that took `answer_seconds`:
  //  - asked for one: all the time left, the core first eliminated whole where that fits;
  //  - a core cheap to search: branch-and-bound for the time left (it takes milliseconds);
  //  - otherwise kProofEffort times the answer's time, within [kProofFloorSeconds,
  //    kProofCapSeconds], eliminating where that fits in it, else searching. None under an
  //    infinite time limit, which asks for answers that do not depend on the machine's speed.
  static void prove(const Problem& problem, const PbqpGraph& graph, const Core& core, const SolveOptions& options,
                    double answer_seconds, Solution& solution) {
    const double time_left = std::max(0.0, options.time_limit_seconds - answer_seconds);
    double seconds = time_left;
    const bool cheap = core.cheap_to_search();
    if (!options.prove_optimality && !cheap) {
      if (!std::isfinite(time_left)) return;
      seconds = std::min(time_left, std::clamp(kProofEffort * answer_seconds, kProofFloorSeconds, kProofCapSeconds));
      solution.stats["proof_budget_ms"] = seconds * 1e3;
    }
    const Deadline deadline(seconds);  // one budget for both: the search gets what elimination left
    if (options.prove_optimality || !cheap) prove_by_elimination(problem, core, options, seconds, solution);
    if (!solution.optimal) search(problem, graph, deadline, options.max_search_nodes, solution);
  }

  // Variable elimination of the whole core when it is cheap (see kExactWork):
  // the optimum, so the bound is the cost. False when the core is too wide for it.
  static bool solve_exactly(const Problem& problem, const Core& core, Solution& solution) {
    Assignment exact = solution.assignment;
    if (!pbqp::solve_by_elimination(core.graph, kInfinity, kExactWork, exact)) return false;
    core.trace.back_propagate(exact);
    solution.assignment = std::move(exact);
    finish_solution(problem, solution);
    solution.lower_bound = solution.cost;
    solution.stats["exact_core"] = 1;
    return true;
  }

  // A core of low treewidth (randomly wired networks: width 4 or so) is proven fastest by
  // eliminating it whole, when its tables fit dp's memory budget and the work fits the
  // proof's seconds (elimination cannot be interrupted); the branch-and-bound's bound stays
  // at the LP relaxation's, which on such cores is loose.
  static void prove_by_elimination(const Problem& problem, const Core& core, const SolveOptions& options,
                                   double seconds_left, Solution& solution) {
    Assignment exact = solution.assignment;
    const double max_entries = static_cast<double>(options.memory_budget_bytes) / sizeof(Cost);
    const double max_work = std::max(0.0, seconds_left) * kEliminationTermsPerSecond;
    if (!pbqp::solve_by_elimination(core.graph, max_entries, max_work, exact)) return;
    core.trace.back_propagate(exact);
    keep_better(problem, std::move(exact), solution);
    solution.lower_bound = solution.cost;
    solution.optimal = true;
    solution.stats["exact_core"] = 1;
  }

  // RN on the core, polished by local search: cheap, and a fallback for the dual phase.
  static void first_incumbent(const Problem& problem, const Core& core, Solution& solution) {
    pbqp::solve_by_reduction(core.graph, solution.assignment);
    pbqp::improve_locally(core.graph, solution.assignment);
    core.trace.back_propagate(solution.assignment);
    finish_solution(problem, solution);
    solution.stats["heuristic_cost"] = solution.cost;
  }

  // The dual phase: a bound for the core, and its rounding and fusion as incumbents.
  static void improve_with_dual(const Problem& problem, const Core& core, const pbqp::DualBound& dual,
                                Solution& solution) {
    solution.lower_bound = core.trace.constant() + dual.bound();
    solution.stats["dual_iterations"] = dual.iterations();
    if (!is_finite(dual.bound())) return;  // infeasible: nothing to round
    Assignment improved = solution.assignment;
    pbqp::improve_with_dual(core.graph, dual, kFusionWork, improved);
    core.trace.back_propagate(improved);
    keep_better(problem, std::move(improved), solution);
  }

  static void search(const Problem& problem, const PbqpGraph& graph, const Deadline& deadline, uint64_t max_nodes,
                     Solution& solution) {
    pbqp::BranchAndBound search(deadline, max_nodes);
    Assignment better = solution.assignment;
    if (search.solve(graph, solution.cost, better)) keep_better(problem, std::move(better), solution);
    solution.optimal = search.complete();
    if (solution.optimal)
      solution.lower_bound = solution.cost;
    else if (std::isfinite(search.root_bound()))
      solution.lower_bound = std::max(*solution.lower_bound, search.root_bound());
    solution.stats["bb_nodes"] = static_cast<double>(search.search_nodes());
    if (std::isfinite(search.root_bound())) solution.stats["root_bound"] = search.root_bound();
  }
};

}  // namespace

std::unique_ptr<Solver> make_pbqp_solver() { return std::make_unique<PbqpSolver>(); }

}  // namespace layoutopt::solvers
