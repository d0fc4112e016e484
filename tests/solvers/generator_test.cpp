#include "layoutopt/solvers/generator.h"

#include <doctest/doctest.h>

#include <set>

#include "layoutopt/solvers/error.h"

namespace layoutopt::solvers {

TEST_CASE("every structure yields the requested size and is reproducible from the seed") {
  for (Structure structure : all_structures()) {
    CAPTURE(structure_name(structure));
    const GeneratorOptions options{.structure = structure, .nodes = 250, .candidates = 12, .seed = 9};
    const Problem a = generate_instance(options);
    const Problem b = generate_instance(options);
    CHECK(a.node_count() == 250);
    CHECK(a.edge_count() >= 249);  // connected
    CHECK(a.node(0).costs.size() == 12);
    CHECK(a.node(17).labels.size() == 12);
    REQUIRE(a.edge_count() == b.edge_count());
    for (size_t e = 0; e < a.edge_count(); ++e) CHECK(*a.edges()[e].costs == *b.edges()[e].costs);
    CHECK(parse_structure(structure_name(structure)) == structure);
  }
}

TEST_CASE("edge matrices look like layout transforms and are shared") {
  const Problem problem = generate_instance({.structure = Structure::residual, .nodes = 1000, .candidates = 20});
  std::set<const Matrix*> distinct;
  for (const Edge& edge : problem.edges()) {
    distinct.insert(edge.costs.get());
    CHECK((edge.costs->array() >= 0).all());
    CHECK((edge.costs->array() == 0).any());  // some candidate pairs agree on the layout
    CHECK((edge.costs->array() > 0).any());
  }
  CHECK(distinct.size() < problem.edge_count() / 4);
  const Vector& costs = problem.node(0).costs;
  CHECK(costs.maxCoeff() > costs.minCoeff());
}

TEST_CASE("the forbidden probability forbids some transforms") {
  const Problem problem = generate_instance(
      {.structure = Structure::chain, .nodes = 200, .candidates = 10, .forbidden_probability = 0.3});
  long forbidden = 0;
  for (const Edge& edge : problem.edges()) forbidden += (edge.costs->array() == kInfinity).count();
  CHECK(forbidden > 0);
}

TEST_CASE("bad generator options are rejected") {
  CHECK_THROWS_WITH_AS((void)generate_instance({.nodes = 0}), doctest::Contains("--nodes must be at least 1"),
                       SolverError);
  CHECK_THROWS_WITH_AS((void)generate_instance({.forbidden_probability = 2}), doctest::Contains("[0, 1]"), SolverError);
  CHECK_THROWS_WITH_AS((void)parse_structure("mesh"), doctest::Contains("expected one of: chain, residual"),
                       SolverError);
}

}  // namespace layoutopt::solvers
