#include "layoutopt/solvers/generator.h"

#include <random>

#include "generator/cost_model.h"
#include "generator/topology.h"
#include "layoutopt/solvers/error.h"

namespace layoutopt::solvers {

namespace {

constexpr std::pair<Structure, std::string_view> kNames[] = {
    {Structure::chain, "chain"},         {Structure::residual, "residual"}, {Structure::inception, "inception"},
    {Structure::dense, "dense"},         {Structure::grid, "grid"},         {Structure::random_wiring, "random"},
};

void check(const GeneratorOptions& options) {
  if (options.nodes < 1) throw SolverError("generator: --nodes must be at least 1, got " + std::to_string(options.nodes));
  if (options.candidates < 1)
    throw SolverError("generator: --candidates must be at least 1, got " + std::to_string(options.candidates));
  if (!(options.forbidden_probability >= 0.0 && options.forbidden_probability <= 1.0))
    throw SolverError("generator: forbidden probability must be in [0, 1], got " +
                      std::to_string(options.forbidden_probability));
}

}  // namespace

Problem generate_instance(const GeneratorOptions& options) {
  check(options);
  std::mt19937_64 random(options.seed);
  const generator::Wiring wiring = generator::wire(options.structure, options.nodes, random);
  generator::CostModel model(options, random);
  Problem problem;
  for (int v = 0; v < options.nodes; ++v) {
    const int shape = model.shape_of(v);
    problem.add_node("n" + std::to_string(v), model.node_costs(shape), model.labels(shape));
  }
  for (auto [from, to] : wiring) problem.add_edge(from, to, model.edge_costs(model.shape_of(from), model.shape_of(to)));
  return problem;
}

std::string_view structure_name(Structure structure) {
  for (auto [value, name] : kNames)
    if (value == structure) return name;
  return "?";
}

Structure parse_structure(std::string_view name) {
  for (auto [value, known] : kNames)
    if (known == name) return value;
  std::string list;
  for (auto [value, known] : kNames) list += (list.empty() ? "" : ", ") + std::string(known);
  throw SolverError("unknown structure '" + std::string(name) + "' (expected one of: " + list + ")");
}

std::vector<Structure> all_structures() {
  std::vector<Structure> result;
  for (auto [value, name] : kNames) result.push_back(value);
  return result;
}

}  // namespace layoutopt::solvers
