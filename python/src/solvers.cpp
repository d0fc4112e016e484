#include "solvers.h"

#include <pybind11/eigen.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>

#include "layoutopt/solvers/generator.h"
#include "layoutopt/solvers/instance_io.h"
#include "layoutopt/solvers/solver.h"

namespace py = pybind11;

namespace layoutopt::python {

namespace {

namespace solvers = layoutopt::solvers;

/// A node named by its name or its id (the order of add_node).
using NodeRef = std::variant<int, std::string>;

solvers::NodeId node_id(const solvers::Problem& problem, const NodeRef& ref) {
  if (const std::string* name = std::get_if<std::string>(&ref)) return problem.id_of(*name);
  const int id = std::get<int>(ref);
  if (id < 0 || static_cast<size_t>(id) >= problem.node_count())
    throw py::index_error("node id " + std::to_string(id) + " is out of range: the problem has " +
                          std::to_string(problem.node_count()) + " nodes");
  return id;
}

void add_edge(solvers::Problem& problem, const NodeRef& from, const NodeRef& to, const solvers::Matrix& costs) {
  problem.add_edge(node_id(problem, from), node_id(problem, to), std::make_shared<const solvers::Matrix>(costs));
}

/// Never replaces a file silently: the caller says overwrite=True.
void save_instance(const solvers::Problem& problem, const std::filesystem::path& path, bool overwrite) {
  if (std::filesystem::exists(path) && !overwrite)
    throw py::value_error("'" + path.string() + "' exists; pass overwrite=True to replace it");
  solvers::save_instance(problem, path);
}

solvers::Problem generate(const std::string& structure, int nodes, int candidates, uint64_t seed, double forbidden) {
  return solvers::generate_instance({.structure = solvers::parse_structure(structure),
                                     .nodes = nodes,
                                     .candidates = candidates,
                                     .seed = seed,
                                     .forbidden_probability = forbidden});
}

struct SolveArguments {
  std::string solver;
  double time_limit = 10.0;
  uint64_t max_search_nodes = 0;
  double memory_budget_mib = 1024.0;
  bool prove = false;
  bool branch_and_bound = true;
  bool keep_dominated = false;
};

/// The solution and the solver that made it, for Solution.solver.
struct NamedSolution {
  std::string solver;
  solvers::Solution solution;
  std::vector<std::string> names;  ///< node names, for assignment_by_name
};

NamedSolution solve(const solvers::Problem& problem, const SolveArguments& args) {
  // The same options `layoutopt solve` sets from its flags (apps/commands/solve.cpp).
  if (!(args.time_limit >= 0)) throw py::value_error("time_limit must be >= 0 seconds, got " + std::to_string(args.time_limit));
  if (!(args.memory_budget_mib > 0)) throw py::value_error("memory_budget_mib must be positive");
  const auto solver = solvers::make_solver(args.solver);
  solvers::SolveOptions options;
  options.time_limit_seconds = std::isinf(args.time_limit) ? solvers::kNoTimeLimit : args.time_limit;
  options.max_search_nodes = args.max_search_nodes;
  options.memory_budget_bytes = static_cast<size_t>(args.memory_budget_mib * 1024 * 1024);
  options.branch_and_bound = args.branch_and_bound;
  options.prove_optimality = args.prove;
  options.drop_dominated = !args.keep_dominated;
  NamedSolution named{args.solver, {}, {}};
  for (const solvers::Node& node : problem.nodes()) named.names.push_back(node.name);
  const py::gil_scoped_release released;  // a proof may search for the whole time limit
  named.solution = solver->solve(problem, options);
  return named;
}

py::object optional_number(const std::optional<double>& value) {
  return value && std::isfinite(*value) ? py::cast(*value) : py::none();
}

void bind_problem(py::module_& module) {
  py::class_<solvers::Problem>(module, "Problem",
                               "A layout-selection cost problem: nodes with a cost per candidate, edges with a cost "
                               "matrix per (source, target) candidate pair; math.inf forbids a choice.")
      .def(py::init<>())
      .def("add_node", &solvers::Problem::add_node, py::arg("name"), py::arg("costs"),
           py::arg("labels") = std::vector<std::string>{},
           "Adds a node with one cost per candidate (list or 1-D array); returns its id. Raises SolverError for a "
           "duplicate name, no candidates, NaN or a label count that differs.")
      .def("add_edge", &add_edge, py::arg("source"), py::arg("target"), py::arg("costs"),
           "Adds (or adds onto) the edge between two nodes (names or ids): costs[i][j] for source candidate i and "
           "target candidate j (nested lists or a 2-D array).")
      .def_property_readonly("node_count", &solvers::Problem::node_count)
      .def_property_readonly("edge_count", &solvers::Problem::edge_count)
      .def_property_readonly("node_names",
                             [](const solvers::Problem& p) {
                               std::vector<std::string> names;
                               for (const solvers::Node& node : p.nodes()) names.push_back(node.name);
                               return names;
                             })
      .def("node_costs", [](const solvers::Problem& p, const NodeRef& node) { return p.node(node_id(p, node)).costs; },
           py::arg("node"))
      .def("candidates", [](const solvers::Problem& p, const NodeRef& node) { return p.candidates(node_id(p, node)); },
           py::arg("node"))
      .def("evaluate", [](const solvers::Problem& p, const std::vector<int>& a) { return p.evaluate(a); },
           py::arg("assignment"), "Total cost of one candidate per node (math.inf when a choice is forbidden).")
      .def("log10_search_space", &solvers::Problem::log10_search_space)
      .def("__repr__", [](const solvers::Problem& p) {
        return "<layoutopt.Problem " + std::to_string(p.node_count()) + " nodes, " + std::to_string(p.edge_count()) +
               " edges>";
      });
}

void bind_solution(py::module_& module) {
  py::class_<NamedSolution>(module, "Solution", "What a solver answered.")
      .def_readonly("solver", &NamedSolution::solver)
      .def_property_readonly("assignment", [](const NamedSolution& s) { return s.solution.assignment; })
      .def_property_readonly("assignment_by_name",
                             [](const NamedSolution& s) {
                               py::dict named;
                               for (size_t v = 0; v < s.names.size(); ++v)
                                 named[py::str(s.names[v])] = s.solution.assignment[v];
                               return named;
                             })
      .def_property_readonly("cost", [](const NamedSolution& s) { return s.solution.cost; },
                             "math.inf when infeasible")
      .def_property_readonly("feasible", [](const NamedSolution& s) { return s.solution.feasible; })
      .def_property_readonly("optimal", [](const NamedSolution& s) { return s.solution.optimal; },
                             "proven: no better assignment exists")
      .def_property_readonly("lower_bound", [](const NamedSolution& s) { return optional_number(s.solution.lower_bound); },
                             "a proven bound on the optimum, or None")
      .def_property_readonly("gap", [](const NamedSolution& s) { return optional_number(s.solution.gap()); })
      .def_property_readonly("seconds", [](const NamedSolution& s) { return s.solution.seconds; })
      .def_property_readonly("stats", [](const NamedSolution& s) { return s.solution.stats; })
      .def("__repr__", [](const NamedSolution& s) {
        return "<layoutopt.Solution " + s.solver + " cost=" + std::to_string(s.solution.cost) +
               (s.solution.optimal ? " optimal" : " not proven") + ">";
      });
}

}  // namespace

void bind_solvers(py::module_& module) {
  bind_problem(module);
  bind_solution(module);
  module.def("solver_names", &solvers::solver_names, "dp, pbqp, exact, greedy, toulbar2 (what solve() accepts)");
  module.def("load_instance", &solvers::load_instance, py::arg("path"),
             "Reads an instance file (JSON, null for a forbidden entry). Raises SolverError naming the problem.");
  module.def("save_instance", &save_instance, py::arg("problem"), py::arg("path"), py::arg("overwrite") = false,
             "Writes an instance file; an existing file is replaced only with overwrite=True.");
  module.def("generate_instance", &generate, py::arg("structure") = "chain", py::arg("nodes") = 100,
             py::arg("candidates") = 8, py::arg("seed") = 1, py::arg("forbidden_probability") = 0.0,
             "A random instance shaped like a CNN's problem (`layoutopt gen-instance`): structure chain, residual, "
             "inception, dense, grid or random.");
  module.def(
      "solve",
      [](const solvers::Problem& problem, const std::string& solver, double time_limit, uint64_t max_search_nodes,
         double memory_budget_mib, bool prove, bool branch_and_bound, bool keep_dominated) {
        return solve(problem, {solver, time_limit, max_search_nodes, memory_budget_mib, prove, branch_and_bound,
                               keep_dominated});
      },
      py::arg("problem"), py::arg("solver") = "pbqp", py::arg("time_limit") = 10.0, py::arg("max_search_nodes") = 0,
      py::arg("memory_budget_mib") = 1024.0, py::arg("prove") = false, py::arg("branch_and_bound") = true,
      py::arg("keep_dominated") = false,
      "Solves a Problem as `layoutopt solve` does. time_limit: seconds (math.inf: none); max_search_nodes: pbqp's "
      "deterministic cap (0: none); prove: pbqp searches until optimality is proven. Raises SolverError when the "
      "solver refuses the problem.");
}

}  // namespace layoutopt::python
