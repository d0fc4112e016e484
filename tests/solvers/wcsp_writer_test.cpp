// toulbar2 as an independent exact oracle: export to .wcsp, solve, compare optima.

#include "layoutopt/solvers/wcsp_writer.h"

#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "layoutopt/solvers/error.h"
#include "layoutopt/solvers/generator.h"
#include "layoutopt/solvers/solver.h"
#include "test_problems.h"

namespace layoutopt::solvers {

namespace {

constexpr const char* kToulbar2 = "/usr/bin/toulbar2";
constexpr double kScale = 1e6;

// Runs toulbar2 and returns the integer optimum it prints ("Optimum: N in ..."), or -1.
long long toulbar2_optimum(const std::filesystem::path& wcsp) {
  const std::string command = std::string(kToulbar2) + " " + wcsp.string() + " -timer=60 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string output;
  std::array<char, 4096> buffer{};
  while (fgets(buffer.data(), buffer.size(), pipe) != nullptr) output += buffer.data();
  pclose(pipe);
  const size_t at = output.find("Optimum: ");
  if (at == std::string::npos) return -1;
  return std::stoll(output.substr(at + 9));
}

}  // namespace

TEST_CASE("wcsp export lists domains, unary and binary tables") {
  Problem problem;
  problem.add_node("a", testing::vec({0.000005, 0.000003}));
  problem.add_node("b", testing::vec({0.000002, 0.000007}));
  problem.add_edge("a", "b", testing::mat({{0.00001, 0}, {0, kInfinity}}));
  std::ostringstream out;
  write_wcsp(problem, out);
  const std::string text = out.str();
  CHECK(text.rfind("layoutopt 2 2 3 ", 0) == 0);
  CHECK(text.find("2 0 1 0 4\n0 0 10\n") != std::string::npos);
  Problem negative;
  negative.add_node("n", testing::vec({-1}));
  std::ostringstream ignored;
  CHECK_THROWS_WITH_AS(write_wcsp(negative, ignored), doctest::Contains("negative cost"), SolverError);
}

TEST_CASE("toulbar2 agrees with our optimum on medium dense and random instances") {
  if (!std::filesystem::exists(kToulbar2)) {
    MESSAGE("toulbar2 not installed; skipping the oracle check");
    return;
  }
  const auto pbqp = make_solver("pbqp");
  int checked = 0;
  // Seeds whose dense cores our branch-and-bound proves quickly (see the bench for harder ones).
  const std::vector<std::pair<Structure, uint64_t>> cases{{Structure::dense, 1},         {Structure::dense, 4},
                                                          {Structure::dense, 7},         {Structure::random_wiring, 1},
                                                          {Structure::random_wiring, 2}, {Structure::random_wiring, 3}};
  for (auto [structure, seed] : cases) {
    {
      CAPTURE(structure_name(structure));
      CAPTURE(seed);
      const Problem problem = generate_instance(
          {.structure = structure, .nodes = 60, .candidates = 6, .seed = seed, .forbidden_probability = 0.1});
      const auto path = std::filesystem::path(LAYOUTOPT_BINARY_DIR) / ("solvers_oracle_" + std::to_string(checked) + ".wcsp");
      std::ofstream(path) << [&] {
        std::ostringstream text;
        write_wcsp(problem, text, kScale);
        return text.str();
      }();
      const long long oracle = toulbar2_optimum(path);
      REQUIRE(oracle >= 0);
      const Solution ours = pbqp->solve(problem, {});
      CHECK(ours.optimal);
      // Each of the ~(nodes + edges) rounded terms may be off by half a unit.
      const double tolerance = 0.5 * static_cast<double>(problem.node_count() + problem.edge_count()) + 1;
      CHECK(std::abs(ours.cost * kScale - static_cast<double>(oracle)) <= tolerance);
      ++checked;
    }
  }
  CHECK(checked == 6);
}

}  // namespace layoutopt::solvers
