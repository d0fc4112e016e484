// DP and PBQP on generated instances of every structure, 100 to 5,000 nodes, 20 candidates.
// Counters: cost (ms), gap (relative, vs the solver's own lower bound), optimal (1 = proven),
// greedy_excess (how much worse TVM-style greedy picks are than this answer).
//
//   build-solvers/bench/bench_solvers --benchmark_filter='/1000/'

#include <benchmark/benchmark.h>

#include <map>
#include <tuple>

#include "layoutopt/solvers/error.h"
#include "layoutopt/solvers/generator.h"
#include "layoutopt/solvers/solver.h"

namespace {

namespace solvers = layoutopt::solvers;

constexpr int kCandidates = 20;

// Instances are generated once per (structure, size) and shared by both solvers.
const solvers::Problem& instance(solvers::Structure structure, int nodes) {
  static std::map<std::pair<solvers::Structure, int>, solvers::Problem> cache;
  auto it = cache.find({structure, nodes});
  if (it == cache.end())
    it = cache.emplace(std::pair{structure, nodes},
                       solvers::generate_instance({.structure = structure, .nodes = nodes, .candidates = kCandidates}))
             .first;
  return it->second;
}

void run_solver(benchmark::State& state, const char* name, bool prove = false) {
  const auto structure = static_cast<solvers::Structure>(state.range(0));
  const solvers::Problem& problem = instance(structure, static_cast<int>(state.range(1)));
  const auto solver = solvers::make_solver(name);
  solvers::SolveOptions options;
  options.time_limit_seconds = 1.0;
  options.prove_optimality = prove;
  solvers::Solution solution;
  for (auto _ : state) {
    try {
      solution = solver->solve(problem, options);
    } catch (const solvers::SolverError& error) {
      state.SkipWithError(error.what());
      return;
    }
  }
  const double greedy = solvers::make_solver("greedy")->solve(problem, options).cost;
  state.SetLabel(std::string(solvers::structure_name(structure)));
  state.counters["cost"] = solution.cost;
  state.counters["gap"] = solution.gap().value_or(-1.0);
  state.counters["optimal"] = solution.optimal ? 1 : 0;
  state.counters["greedy_excess"] = greedy / solution.cost - 1.0;
  for (const char* stat : {"induced_width", "peak_table_entries", "core_nodes", "bb_nodes", "heuristic_cost"})
    if (solution.stats.contains(stat)) state.counters[stat] = solution.stats.at(stat);
}

void BM_Dp(benchmark::State& state) { run_solver(state, "dp"); }
void BM_Pbqp(benchmark::State& state) { run_solver(state, "pbqp"); }
// The dense-core anchors with the search asked to prove optimality (up to the 1 s limit).
void BM_PbqpProve(benchmark::State& state) { run_solver(state, "pbqp", true); }

void sizes(benchmark::internal::Benchmark* bench) {
  for (solvers::Structure structure : solvers::all_structures())
    for (int nodes : {100, 1000, 5000}) bench->Args({static_cast<int>(structure), nodes});
  bench->ArgNames({"structure", "nodes"})->Unit(benchmark::kMillisecond)->Iterations(2);
}

void dense_anchors(benchmark::internal::Benchmark* bench) {
  for (solvers::Structure structure : {solvers::Structure::dense, solvers::Structure::random_wiring})
    for (int nodes : {300, 1000}) bench->Args({static_cast<int>(structure), nodes});
  bench->ArgNames({"structure", "nodes"})->Unit(benchmark::kMillisecond)->Iterations(1);
}

BENCHMARK(BM_Dp)->Apply(sizes);
BENCHMARK(BM_Pbqp)->Apply(sizes);
BENCHMARK(BM_PbqpProve)->Apply(dense_anchors);

}  // namespace

BENCHMARK_MAIN();
