#include "layoutopt/solvers/instance_io.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "layoutopt/solvers/error.h"
#include "layoutopt/solvers/generator.h"
#include "test_problems.h"

namespace layoutopt::solvers {

namespace {

std::filesystem::path temp_file(const std::string& name) {
  return std::filesystem::path(LAYOUTOPT_BINARY_DIR) / ("solvers_io_" + name);
}

Problem parse(const std::string& text) { return problem_from_json(nlohmann::json::parse(text), "test.json"); }

void check_identical(const Problem& a, const Problem& b) {
  REQUIRE(a.node_count() == b.node_count());
  REQUIRE(a.edge_count() == b.edge_count());
  for (size_t v = 0; v < a.node_count(); ++v) {
    CHECK(a.node(static_cast<int>(v)).name == b.node(static_cast<int>(v)).name);
    CHECK(a.node(static_cast<int>(v)).labels == b.node(static_cast<int>(v)).labels);
    CHECK(a.node(static_cast<int>(v)).costs == b.node(static_cast<int>(v)).costs);  // bitwise, inf included
  }
  for (size_t e = 0; e < a.edge_count(); ++e) {
    CHECK(a.edges()[e].from == b.edges()[e].from);
    CHECK(a.edges()[e].to == b.edges()[e].to);
    CHECK(*a.edges()[e].costs == *b.edges()[e].costs);
  }
}

}  // namespace

TEST_CASE("save then load reproduces every cost exactly") {
  GeneratorOptions options;
  options.structure = Structure::residual;
  options.nodes = 40;
  options.candidates = 5;
  options.forbidden_probability = 0.2;
  const Problem original = generate_instance(options);
  const auto path = temp_file("roundtrip.json");
  save_instance(original, path);
  check_identical(original, load_instance(path));
}

TEST_CASE("null means forbidden, labels are optional and multi-edges merge") {
  const Problem problem = parse(R"({"nodes":[{"name":"a","costs":[1,null]},{"name":"b","costs":[0.5]}],
    "edges":[{"from":"a","to":"b","costs":[[1],[2]]},{"from":"b","to":"a","costs":[[10,20]]}]})");
  CHECK(problem.node(0).costs[1] == kInfinity);
  CHECK(problem.node(0).labels.empty());
  REQUIRE(problem.edge_count() == 1);
  CHECK((*problem.edges()[0].costs)(1, 0) == doctest::Approx(22));
}

TEST_CASE("loaded instances share equal matrices") {
  const Problem problem = parse(R"({"nodes":[{"name":"a","costs":[1,2]},{"name":"b","costs":[1,2]},
    {"name":"c","costs":[1,2]}], "edges":[{"from":"a","to":"b","costs":[[0,1],[1,0]]},
    {"from":"b","to":"c","costs":[[0,1],[1,0]]}]})");
  CHECK(problem.edges()[0].costs.get() == problem.edges()[1].costs.get());
}

TEST_CASE("malformed instances are rejected naming the place and the problem") {
  CHECK_THROWS_WITH_AS(parse(R"({"edges":[]})"), "test.json: top level: missing field \"nodes\"", SolverError);
  CHECK_THROWS_WITH_AS(parse(R"({"nodes":[{"costs":[1]}]})"), "test.json: node 0: missing field \"name\"",
                       SolverError);
  CHECK_THROWS_WITH_AS(parse(R"({"nodes":[{"name":"a","costs":[1,"x"]}]})"),
                       "test.json: node 'a' costs entry 1: expected a number or null, found \"x\"", SolverError);
  CHECK_THROWS_WITH_AS(parse(R"({"nodes":[{"name":"a","costs":[1]}],"edges":[{"from":"a","to":"q","costs":[[1]]}]})"),
                       "test.json: edge 0 ('a' -> 'q'): unknown node 'q'", SolverError);
  CHECK_THROWS_WITH_AS(
      parse(R"({"nodes":[{"name":"a","costs":[1,2]},{"name":"b","costs":[1]}],
               "edges":[{"from":"a","to":"b","costs":[[1],[2,3]]}]})"),
      "test.json: edge 0 ('a' -> 'b') costs row 1: has 2 entries, expected 1", SolverError);
  CHECK_THROWS_WITH_AS(
      parse(R"({"nodes":[{"name":"a","costs":[1,2]},{"name":"b","costs":[1]}],
               "edges":[{"from":"a","to":"b","costs":[[1,1]]}]})"),
      doctest::Contains("cost matrix is 1x2, expected 2x1"), SolverError);
}

TEST_CASE("unreadable and syntactically broken files name the file") {
  CHECK_THROWS_WITH_AS((void)load_instance(temp_file("does_not_exist.json")), doctest::Contains("cannot open"),
                       SolverError);
  const auto path = temp_file("broken.json");
  std::ofstream(path) << "{\"nodes\": [";
  CHECK_THROWS_WITH_AS((void)load_instance(path), doctest::Contains("broken.json: malformed JSON"), SolverError);
}

}  // namespace layoutopt::solvers
