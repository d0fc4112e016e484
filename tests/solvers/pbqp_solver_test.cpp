#include <doctest/doctest.h>

#include "layoutopt/solvers/generator.h"
#include "layoutopt/solvers/solver.h"
#include "test_problems.h"

#include <cmath>
#include <tuple>
#include <vector>

namespace layoutopt::solvers {

TEST_CASE("series-parallel graphs reduce completely with R0/RI/RII") {
  for (Structure structure : {Structure::chain, Structure::residual, Structure::inception}) {
    CAPTURE(structure_name(structure));
    const Problem problem = generate_instance({.structure = structure, .nodes = 1000, .candidates = 30});
    const Solution answer = make_solver("pbqp")->solve(problem, testing::deterministic());
    CHECK(answer.stats.at("core_nodes") == 0);
    CHECK(answer.optimal);
    REQUIRE(answer.lower_bound);
    CHECK(testing::same_cost(*answer.lower_bound, answer.cost));
  }
}

TEST_CASE("pbqp proves optimality on dense and randomly wired instances") {
  // Dense cores do not reduce; these instances are proven by bounds, pruning and search.
  // (Larger dense instances are not always proven quickly: see the bench.)
  for (auto [structure, nodes, seed] : {std::tuple{Structure::dense, 60, 4}, std::tuple{Structure::dense, 60, 7},
                                        std::tuple{Structure::random_wiring, 200, 5}}) {
    const std::string_view shape = structure_name(structure);  // copies: clang 14 cannot capture
    const int instance_seed = seed;                         // a structured binding
    CAPTURE(shape);
    CAPTURE(instance_seed);
    const Problem problem = generate_instance(
        {.structure = structure, .nodes = nodes, .candidates = 6, .seed = static_cast<uint64_t>(seed),
         .forbidden_probability = 0.1});
    const Solution pbqp = make_solver("pbqp")->solve(problem, testing::deterministic());
    CHECK(pbqp.optimal);
    CHECK(pbqp.stats.at("core_nodes") > 0);
    if (structure == Structure::random_wiring) CHECK(testing::same_cost(pbqp.cost, make_solver("dp")->solve(problem, testing::deterministic()).cost));
  }
}

TEST_CASE("forbidden pairs never lead to an infeasible answer when a feasible one exists") {
  const auto pbqp = make_solver("pbqp");
  SolveOptions heuristic_only = testing::deterministic();
  heuristic_only.branch_and_bound = false;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    CAPTURE(seed);
    const Problem problem = generate_instance(
        {.structure = Structure::dense, .nodes = 40, .candidates = 3, .seed = seed, .forbidden_probability = 0.5});
    const Solution exact = make_solver("dp")->solve(problem, testing::deterministic());
    const Solution answer = pbqp->solve(problem, testing::deterministic());
    CHECK(answer.feasible == exact.feasible);
    CHECK(testing::same_cost(answer.cost, exact.cost));
    if (exact.feasible) CHECK(pbqp->solve(problem, heuristic_only).feasible);
  }
}

TEST_CASE("an exhausted time limit still gives a valid, unproven answer with a bound") {
  const Problem problem = generate_instance({.structure = Structure::grid, .nodes = 900, .candidates = 10});
  SolveOptions options = testing::deterministic();
  options.time_limit_seconds = 0;
  const Solution answer = make_solver("pbqp")->solve(problem, options);
  CHECK(answer.feasible);
  CHECK(testing::same_cost(problem.evaluate(answer.assignment), answer.cost));
  CHECK(answer.cost <= make_solver("greedy")->solve(problem, testing::deterministic()).cost);
}

TEST_CASE("phase times account for the solve: every phase reported, their sum within the total") {
  // As given: the reduction would leave a core the up-front elimination solves, skipping phases.
  const Problem problem = generate_instance({.structure = Structure::grid, .nodes = 400, .candidates = 8});
  SolveOptions as_given = testing::deterministic();
  as_given.drop_dominated = false;
  const Solution answer = make_solver("pbqp")->solve(problem, as_given);
  double phases = 0;
  for (const char* phase : {"ms_reduce", "ms_exact_attempt", "ms_incumbent_and_dual", "ms_fusion", "ms_proof"}) {
    CAPTURE(phase);
    REQUIRE(answer.stats.contains(phase));
    CHECK(answer.stats.at(phase) >= 0);
    phases += answer.stats.at(phase);
  }
  CHECK(phases > 0);
  CHECK(phases <= answer.seconds * 1e3 + 1e-6);
}

TEST_CASE("the default fast path lands next to the optimum on 20-candidate-style cores") {
  // Cores with many candidates per node are not searched by default: the answer comes from
  // the dual phase (rounding + fusion). Every seed here now reaches the optimum; the issue's
  // target is 0.1%.
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    CAPTURE(seed);
    const Problem problem = generate_instance({.structure = Structure::random_wiring, .nodes = 150, .candidates = 12,
                                               .seed = seed, .forbidden_probability = 0.1});
    const Solution optimum = make_solver("dp")->solve(problem, testing::deterministic());
    const Solution fast = make_solver("pbqp")->solve(problem, testing::deterministic());
    CHECK(fast.stats.at("core_nodes") > 0);
    CHECK(!fast.stats.contains("bb_nodes"));
    CHECK(testing::same_cost(problem.evaluate(fast.assignment), fast.cost));
    CHECK(fast.cost <= optimum.cost * 1.001);
    REQUIRE(fast.lower_bound);
    CHECK(*fast.lower_bound <= optimum.cost + 1e-9);
  }
}

TEST_CASE("the default proves the 1,000-node randomly wired anchor, and is within 0.1% without the reduction") {
  // `compare`'s instance. Dead-end elimination leaves about 5.6 of 20 candidates per node,
  // so the core is eliminated exactly up front. On the problem as given the dual's ranking
  // alone misleads fusion (the LP relaxation is 0.5% below the optimum): it stopped at 0.14%.
  const Problem problem = generate_instance({.structure = Structure::random_wiring, .nodes = 1000, .candidates = 20,
                                             .seed = 1000});
  const Cost optimum = make_solver("dp")->solve(problem, testing::deterministic()).cost;
  const Solution fast = make_solver("pbqp")->solve(problem, testing::deterministic());
  CHECK(fast.optimal);
  CHECK(fast.stats.contains("exact_core"));
  CHECK(testing::same_cost(fast.cost, optimum));
  SolveOptions as_given = testing::deterministic();
  as_given.drop_dominated = false;
  const Solution plain = make_solver("pbqp")->solve(problem, as_given);
  CHECK(plain.cost <= optimum * 1.001);
}

TEST_CASE("prove_optimality searches large-candidate cores to a proof") {
  const Problem problem = generate_instance(
      {.structure = Structure::random_wiring, .nodes = 150, .candidates = 12, .seed = 2, .forbidden_probability = 0.1});
  SolveOptions prove = testing::deterministic();
  prove.prove_optimality = true;
  const Solution proven = make_solver("pbqp")->solve(problem, prove);
  CHECK(proven.optimal);
  CHECK(testing::same_cost(proven.cost, make_solver("dp")->solve(problem, testing::deterministic()).cost));
}

TEST_CASE("prove_optimality eliminates a low-width core whole when the time left allows") {
  // `compare`'s 300-node randomly wired instance: width 4, too big for the up-front exact
  // attempt, and its LP relaxation too loose for branch-and-bound to prove it quickly.
  // As given: its reduction is small enough for the up-front attempt.
  const Problem problem =
      generate_instance({.structure = Structure::random_wiring, .nodes = 300, .candidates = 20, .seed = 300});
  SolveOptions as_given = testing::deterministic();
  as_given.drop_dominated = false;
  CHECK_FALSE(make_solver("pbqp")->solve(problem, as_given).stats.contains("exact_core"));
  SolveOptions prove = as_given;
  prove.prove_optimality = true;
  const Solution proven = make_solver("pbqp")->solve(problem, prove);
  CHECK(proven.optimal);
  CHECK(proven.stats.contains("exact_core"));
  CHECK(testing::same_cost(proven.cost, make_solver("dp")->solve(problem, testing::deterministic()).cost));
  // With no time left the elimination, which cannot be interrupted, is not started.
  prove.time_limit_seconds = 0;
  const Solution hurried = make_solver("pbqp")->solve(problem, prove);
  CHECK_FALSE(hurried.stats.contains("exact_core"));
  CHECK(testing::same_cost(problem.evaluate(hurried.assignment), hurried.cost));
}

TEST_CASE("materialisation cores (binary aux nodes of degree >= 3) are solved to DP's optimum") {
  // Where the core's elimination tables fit the budget the core is eliminated exactly and the
  // answer proven; otherwise the dual phase answers, valid and bounded by the optimum.
  int exact = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    for (auto [candidates, layouts] : {std::pair{4, 2}, std::pair{6, 3}, std::pair{12, 3}}) {
      const int candidate_count = candidates;  // a copy: clang 14 cannot capture a structured binding
      CAPTURE(seed);
      CAPTURE(candidate_count);
      const Problem problem = testing::materialisation_problem(seed, 9, candidates, layouts);
      const Solution optimum = make_solver("dp")->solve(problem, testing::deterministic());
      const Solution pbqp = make_solver("pbqp")->solve(problem, testing::deterministic());
      CHECK(pbqp.stats.at("core_nodes") > 0);
      CHECK(testing::same_cost(problem.evaluate(pbqp.assignment), pbqp.cost));
      REQUIRE(pbqp.lower_bound);
      CHECK(*pbqp.lower_bound <= optimum.cost + 1e-9 * (1.0 + optimum.cost));
      CHECK(pbqp.cost >= optimum.cost - 1e-9 * (1.0 + optimum.cost));
      if (pbqp.stats.contains("exact_core")) {
        ++exact;
        CHECK(pbqp.optimal);
        CHECK(testing::same_cost(pbqp.cost, optimum.cost));
      }
      if (pbqp.optimal) CHECK(testing::same_cost(pbqp.cost, optimum.cost));
    }
  }
  CHECK(exact >= 18);  // most of these small cores fit the elimination budget
}

namespace {
// The generated instance library a research user would try first: every structure with a
// core, at sizes whose proofs range from instant to out of reach.
std::vector<GeneratorOptions> instance_library() {
  std::vector<GeneratorOptions> library;
  for (Structure structure : {Structure::dense, Structure::grid, Structure::random_wiring, Structure::inception})
    for (int nodes : {30, 60, 100})
      for (int candidates : {8, 16})
        for (uint64_t seed : {1, 2}) library.push_back({structure, nodes, candidates, seed});
  return library;
}
}  // namespace

TEST_CASE("given a time limit, the default proves what a proof closes quickly and reports the gap elsewhere") {
  // "Quickly": within a quarter of the time the default gives its own proof of that instance,
  // for room on a loaded host. That budget grows with the answer's time, so a slow host (a
  // sanitized build beside other suites) compares about as many instances as a fast one.
  const auto pbqp = make_solver("pbqp");
  int compared = 0;
  for (const GeneratorOptions& options : instance_library()) {
    CAPTURE(structure_name(options.structure));
    CAPTURE(options.nodes);
    CAPTURE(options.candidates);
    CAPTURE(options.seed);
    const Problem problem = generate_instance(options);
    SolveOptions prove;
    prove.prove_optimality = true;
    prove.time_limit_seconds = 0.3;
    const Solution proven = pbqp->solve(problem, prove);
    const Solution answer = pbqp->solve(problem, SolveOptions{});
    REQUIRE(answer.lower_bound);
    CHECK(answer.cost >= *answer.lower_bound - 1e-9 * (1.0 + std::abs(answer.cost)));
    if (!answer.optimal) CHECK(answer.gap());
    const double default_proof_seconds = answer.stats.contains("proof_budget_ms")
                                             ? answer.stats.at("proof_budget_ms") * 1e-3
                                             : SolveOptions{}.time_limit_seconds - answer.seconds;
    if (proven.optimal && proven.seconds <= default_proof_seconds / 4) {
      ++compared;
      CHECK(answer.optimal);
      CHECK(testing::same_cost(answer.cost, proven.cost));
    }
  }
  MESSAGE(compared << " instances proven quickly");
  CHECK(compared >= 20);  // the library does hold quickly proven cores
}

TEST_CASE("the default goes on to prove dense cores its dual phase leaves open, within its proof budget") {
  // Dense cores whose LP bound stays below the answer: a few search nodes prove them.
  const auto pbqp = make_solver("pbqp");
  for (auto [nodes, candidates, seed] : {std::tuple{20, 12, 6}, std::tuple{30, 12, 3}, std::tuple{30, 12, 7},
                                         std::tuple{30, 16, 4}}) {
    const GeneratorOptions options{Structure::dense, nodes, candidates, static_cast<uint64_t>(seed)};
    CAPTURE(options.nodes);
    CAPTURE(options.candidates);
    CAPTURE(options.seed);
    const Problem problem = generate_instance(options);
    const Solution answer = pbqp->solve(problem, SolveOptions{});
    REQUIRE(answer.stats.contains("proof_budget_ms"));  // proven by the bounded phase, not before it
    const double budget_ms = answer.stats.at("proof_budget_ms");
    CHECK(budget_ms >= 200);
    CHECK(budget_ms <= 1000);
    SolveOptions prove = testing::deterministic();
    prove.prove_optimality = true;
    const Solution proven = pbqp->solve(problem, prove);
    CHECK(testing::same_cost(answer.cost, proven.cost));
    // The budget is wall time: the default owes the proof only where it fits with room to
    // spare on this host at this moment (a sanitized build beside other tests may not).
    if (proven.seconds * 1e3 <= budget_ms / 2)
      CHECK(answer.optimal);
    else
      MESSAGE("the proof took " << proven.seconds * 1e3 << " ms here, more than half the budget");
    // Under an infinite time limit no share of seconds applies: the answer stays unproven.
    CHECK_FALSE(pbqp->solve(problem, testing::deterministic()).optimal);
  }
}

}  // namespace layoutopt::solvers
