#include "pbqp/reductions.h"

#include <doctest/doctest.h>

#include "../test_problems.h"
#include "layoutopt/solvers/solver.h"

namespace layoutopt::solvers::pbqp {

TEST_CASE("RI/RII on a cycle-free or degree-2 graph are exact") {
  // A 4-cycle: every node has degree 2, so RII folds it to R0 exactly.
  Problem problem;
  for (const char* name : {"a", "b", "c", "d"}) problem.add_node(name, testing::vec({0.5, 0.1, 0.3}));
  const Matrix m = testing::mat({{0, 1, 2}, {1, 0, 3}, {2, 3, kInfinity}});
  problem.add_edge("a", "b", m);
  problem.add_edge("b", "c", m);
  problem.add_edge("c", "d", m);
  problem.add_edge("d", "a", m);
  PbqpGraph graph(problem);
  ReductionTrace trace;
  const ReductionCounts counts = reduce(graph, trace);
  CHECK(graph.alive_count() == 0);
  CHECK(counts.r2 >= 1);
  Assignment assignment(4, -1);
  trace.back_propagate(assignment);
  const Cost optimum = make_solver("exact")->solve(problem, {}).cost;
  CHECK(trace.constant() == doctest::Approx(optimum));
  CHECK(problem.evaluate(assignment) == doctest::Approx(optimum));
}

TEST_CASE("RII merges the folded matrix into an existing edge") {
  // Triangle a-b-c: eliminating b adds to the existing a-c edge, leaving one edge.
  Problem problem;
  for (const char* name : {"a", "b", "c"}) problem.add_node(name, testing::vec({0, 1}));
  problem.add_edge("a", "b", testing::mat({{0, 5}, {5, 0}}));
  problem.add_edge("b", "c", testing::mat({{0, 5}, {5, 0}}));
  problem.add_edge("a", "c", testing::mat({{1, 0}, {0, 1}}));
  PbqpGraph graph(problem);
  ReductionTrace trace;
  reduce(graph, trace);
  CHECK(graph.alive_count() == 0);
  CHECK(trace.constant() == doctest::Approx(make_solver("exact")->solve(problem, {}).cost));
}

TEST_CASE("fixing a node folds its rows into the neighbours") {
  Problem problem;
  problem.add_node("a", testing::vec({1, 2}));
  problem.add_node("b", testing::vec({0, 0}));
  problem.add_edge("a", "b", testing::mat({{3, 4}, {5, 6}}));
  PbqpGraph graph(problem);
  ReductionTrace trace;
  fix_node(graph, 0, 1, trace);
  CHECK(trace.constant() == 2);
  CHECK(graph.costs(1) == testing::vec({5, 6}));
  CHECK(graph.degree(1) == 0);
}

TEST_CASE("reduce_around after a fix applies exactly what a full reduce would") {
  for (uint64_t seed = 0; seed < 40; ++seed) {
    CAPTURE(seed);
    const Problem problem = seed % 2 == 0 ? testing::random_problem(seed, {.max_nodes = 12, .edge_probability = 0.5})
                                          : testing::materialisation_problem(seed, 6, 4, 2);
    PbqpGraph graph(problem);
    ReductionTrace trace;
    reduce(graph, trace);
    while (graph.alive_count() > 0) {
      // Fix the busiest node, as RN does, then compare both ways of re-reducing.
      int v = -1;
      for (int x = 0; x < graph.size(); ++x)
        if (graph.alive(x) && (v < 0 || graph.degree(x) > graph.degree(v))) v = x;
      std::vector<int> touched;
      for (int e : graph.incident(v)) touched.push_back(graph.other(e, v));
      fix_node(graph, v, 0, trace);
      PbqpGraph full = graph;
      ReductionTrace full_trace = trace;
      const ReductionCounts expected = reduce(full, full_trace);
      const ReductionCounts counts = reduce_around(graph, trace, touched);
      CHECK(counts.r0 == expected.r0);
      CHECK(counts.r1 == expected.r1);
      CHECK(counts.r2 == expected.r2);
      CHECK(trace.constant() == full_trace.constant());  // same steps, same order: bitwise
      REQUIRE(graph.alive_count() == full.alive_count());
      for (int x = 0; x < graph.size(); ++x) {
        REQUIRE(graph.alive(x) == full.alive(x));
        if (graph.alive(x)) CHECK(graph.degree(x) >= 3);
      }
    }
  }
}

}  // namespace layoutopt::solvers::pbqp
