// `layoutopt solve`: load an instance file, run one solver, print the answer.

#include <cmath>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli_common.h"
#include "commands.h"
#include "layoutopt/solvers/instance_io.h"
#include "layoutopt/solvers/solver.h"

namespace layoutopt::apps {

namespace {

namespace solvers = layoutopt::solvers;

struct SolveArgs {
  std::string instance;
  std::string solver = "pbqp";
  double time_limit = 10.0;
  double memory_budget_mib = 1024.0;
  bool no_branch_and_bound = false;
  bool prove = false;
  bool keep_dominated = false;
  bool json = false;
};

// ordered_json keeps the assignment in node order, as in the instance file.
using Json = nlohmann::ordered_json;

Json number_or_null(double value) { return std::isfinite(value) ? Json(value) : Json(nullptr); }

void print_json(const solvers::Problem& problem, const std::string& solver, const solvers::Solution& solution) {
  Json assignment = Json::object();
  for (size_t v = 0; v < problem.node_count(); ++v)
    assignment[problem.node(static_cast<int>(v)).name] = solution.assignment[v];
  Json out = {{"solver", solver},
                        {"cost", number_or_null(solution.cost)},
                        {"feasible", solution.feasible},
                        {"optimal", solution.optimal},
                        {"lower_bound", solution.lower_bound ? number_or_null(*solution.lower_bound) : Json(nullptr)},
                        {"gap", solution.gap() ? Json(*solution.gap()) : Json(nullptr)},
                        {"seconds", solution.seconds},
                        {"stats", solution.stats},
                        {"assignment", assignment}};
  std::cout << out.dump(2) << "\n";
}

void print_text(const solvers::Problem& problem, const std::string& solver, const solvers::Solution& solution) {
  std::cout << std::setprecision(9) << "solver:      " << solver << "\n";
  if (solution.feasible)
    std::cout << "cost:        " << solution.cost << " ms\n";
  else
    std::cout << "cost:        infeasible (every assignment uses a forbidden choice"
              << (solution.optimal ? ", proven)\n" : " as far as the search went)\n");
  std::cout << "optimal:     " << (solution.optimal ? "yes (proven)" : "not proven") << "\n";
  if (solution.lower_bound) std::cout << "lower bound: " << *solution.lower_bound << " ms\n";
  if (solution.gap()) std::cout << "gap:         " << *solution.gap() * 100 << " %\n";
  std::cout << "seconds:     " << solution.seconds << "\n";
  for (const auto& [key, value] : solution.stats) std::cout << "  " << key << ": " << value << "\n";
  std::cout << "assignment:\n";
  for (size_t v = 0; v < problem.node_count(); ++v) {
    const solvers::Node& node = problem.node(static_cast<int>(v));
    const int choice = solution.assignment[v];
    std::cout << "  " << node.name << " = " << choice;
    if (!node.labels.empty()) std::cout << "  (" << node.labels[choice] << ")";
    std::cout << "\n";
  }
}

void run(const SolveArgs& args) {
  const solvers::Problem problem = solvers::load_instance(args.instance);
  const auto solver = solvers::make_solver(args.solver);
  solvers::SolveOptions options;
  options.time_limit_seconds = args.time_limit;
  options.memory_budget_bytes = static_cast<size_t>(args.memory_budget_mib * 1024 * 1024);
  options.branch_and_bound = !args.no_branch_and_bound;
  options.prove_optimality = args.prove;
  options.drop_dominated = !args.keep_dominated;
  const solvers::Solution solution = solver->solve(problem, options);
  if (args.json)
    print_json(problem, args.solver, solution);
  else
    print_text(problem, args.solver, solution);
}

}  // namespace

void add_solve_command(CLI::App& app) {
  auto args = std::make_shared<SolveArgs>();
  CLI::App* command = app.add_subcommand(
      "solve",
      "Pick one candidate per node of a cost-problem instance (JSON, see gen-instance) minimising node plus edge "
      "costs. Prints the cost, the assignment, whether it is proven optimal, a lower bound and the solve time.");
  command->add_option("instance", args->instance, "instance file (JSON)")->required()->check(CLI::ExistingFile);
  command->add_option("--solver", args->solver,
                      "dp: exact variable elimination (refuses wide graphs); pbqp: reductions + branch-and-bound "
                      "(any graph, anytime); exact: exhaustive (tiny instances); greedy: cheapest node cost, edges "
                      "ignored")
      ->check(CLI::IsMember(solvers::solver_names()))
      ->capture_default_str();
  command->add_option("--time-limit", args->time_limit, "seconds before pbqp stops searching and reports its best")
      ->check(non_negative_number())
      ->capture_default_str();
  command->add_option("--memory-budget", args->memory_budget_mib, "MiB of tables dp may use before refusing")
      ->check(positive_number())
      ->capture_default_str();
  command->add_flag("--prove", args->prove,
                   "pbqp: keep searching (branch-and-bound) until optimality is proven or the time limit ends "
                   "(without it: 10x the answer's time, 0.2 to 1 s, then the answer with its gap)");
  command->add_flag("--no-branch-and-bound", args->no_branch_and_bound,
                    "pbqp: heuristic + bound only, no search for a proof");
  command->add_flag("--keep-dominated", args->keep_dominated,
                    "dp, pbqp: solve the problem as given, without first dropping the candidates that other "
                    "candidates dominate (dead-end elimination, which preserves the optimum)");
  command->add_flag("--json", args->json, "print the result as JSON");
  command->callback([args] { run(*args); });
}

}  // namespace layoutopt::apps
