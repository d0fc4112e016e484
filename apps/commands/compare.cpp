// `layoutopt compare [PROBLEM ...] -o report-dir`: every solver on every problem, written
// as CSV + an HTML report with plots. Zoo networks get their costs from the analytic model
// until measured costs exist; generated instances of growing size and treewidth come too.

#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_common.h"
#include "commands.h"
#include "layoutopt/graph/zoo/zoo.h"
#include "layoutopt/planning/analytic_cost_model.h"
#include "layoutopt/planning/layout_problem.h"
#include "layoutopt/evaluation/solver_comparison.h"
#include "layoutopt/solvers/generator.h"
#include "layoutopt/solvers/instance_io.h"
#include "layoutopt/solvers/solver.h"

namespace layoutopt::apps {

namespace {

struct CompareFlags {
  std::vector<std::string> problems;
  std::filesystem::path output = "compare-report";
  bool force = false;
  std::vector<std::string> solvers{"greedy", "dp", "pbqp", "toulbar2"};
  std::vector<int> sizes{100, 300, 1000};
  std::vector<std::string> structures{"residual", "inception", "dense", "random", "grid"};
  int candidates = 20;
  double time_limit = 2.0;
  bool save_instances = false;
};

evaluation::ComparisonProblem model_problem(const std::string& spec, const planning::AnalyticCostModel& model) {
  const LoadedModel loaded = load_prepared_and_warn({.spec = spec});
  const planning::LayoutProblem problem(loaded.graph, model);
  return {loaded.graph.name(), "network (analytic model)", problem.problem()};
}

std::vector<evaluation::ComparisonProblem> default_problems(const CompareFlags& flags) {
  std::vector<evaluation::ComparisonProblem> problems;
  const planning::AnalyticCostModel model({.max_conv_candidates = flags.candidates});
  for (const auto& entry : graph::zoo::entries()) problems.push_back(model_problem(entry.name, model));
  for (const std::string& structure : flags.structures)
    for (int size : flags.sizes) {
      const solvers::GeneratorOptions options{.structure = solvers::parse_structure(structure),
                                              .nodes = size,
                                              .candidates = flags.candidates,
                                              .seed = static_cast<uint64_t>(size)};
      problems.push_back({structure + "-" + std::to_string(size), "generated " + structure,
                          solvers::generate_instance(options)});
    }
  return problems;
}

/// A .json file is either a layoutopt graph (it says so in "format") or a solver instance.
bool is_graph_document(const std::filesystem::path& path) {
  std::ifstream in(path);
  const auto document = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  return document.is_object() && document.value("format", "") == "layoutopt-graph";
}

std::vector<evaluation::ComparisonProblem> named_problems(const CompareFlags& flags) {
  std::vector<evaluation::ComparisonProblem> problems;
  const planning::AnalyticCostModel model({.max_conv_candidates = flags.candidates});
  for (const std::string& spec : flags.problems) {
    const std::filesystem::path path(spec);
    if (std::filesystem::is_directory(path))
      throw std::runtime_error("problem '" + spec + "' is a folder, not a model or instance file");
    if (path.extension() == ".json" && !graph::zoo::contains(spec) && !is_graph_document(path)) {
      problems.push_back({path.stem().string(), "instance file", solvers::load_instance(path)});
      continue;
    }
    problems.push_back(model_problem(spec, model));
  }
  return problems;
}

void print_progress(const evaluation::ComparisonRow& row, size_t done, size_t total) {
  std::cout << "[" << std::setw(3) << done << "/" << total << "] " << std::left << std::setw(22) << row.problem
            << std::setw(8) << row.solver << std::right;
  if (!row.solution) {
    std::cout << "refused: " << row.refusal << "\n";
    return;
  }
  const auto& s = *row.solution;
  std::ostringstream proof;  // proven, or how far the answer may be above the optimum
  if (s.optimal)
    proof << "optimal";
  else if (s.gap())
    proof << "gap " << std::fixed << std::setprecision(3) << *s.gap() * 100 << "%";
  std::cout << std::fixed << std::setprecision(4) << std::setw(12) << s.cost << " ms  " << std::left << std::setw(12)
            << proof.str() << std::right << std::setprecision(2) << std::setw(10) << s.seconds * 1e3 << " ms solve\n"
            << std::defaultfloat;
}

void run_compare(const CompareFlags& flags) {
  // A folder holding either file has a report of the user's, which this run would replace.
  for (const char* file : {"report.html", "comparison.csv"})
    if (std::filesystem::exists(flags.output / file) && !flags.force)
      throw std::runtime_error("'" + (flags.output / file).string() + "' exists; pass --force to overwrite the report");
  const auto problems = flags.problems.empty() ? default_problems(flags) : named_problems(flags);
  evaluation::ComparisonOptions options{.solvers = flags.solvers};
  options.solve.time_limit_seconds = flags.time_limit;
  const auto rows = evaluation::compare_solvers(problems, options, print_progress);
  evaluation::write_comparison_report(rows, flags.output);
  if (flags.save_instances)
    for (const auto& p : problems) solvers::save_instance(p.problem, flags.output / (p.name + ".instance.json"));
  std::cout << "wrote " << (flags.output / "report.html").string() << " and comparison.csv ("
            << rows.size() << " runs on " << problems.size() << " problems)\n";
}

}  // namespace

void add_compare_command(CLI::App& app) {
  auto flags = std::make_shared<CompareFlags>();
  CLI::App* command = app.add_subcommand(
      "compare", "Run every solver on networks and generated instances; write a CSV and an HTML report with plots");
  command->add_option("PROBLEM", flags->problems,
                      "built-in network, .onnx/.json model or instance file (default: the whole zoo plus "
                      "generated instances)");
  command->add_option("-o,--output", flags->output, "report folder")->capture_default_str();
  command->add_flag("--force", flags->force, "overwrite an existing report");
  command->add_option("--solvers", flags->solvers, "solvers to run")->delimiter(',')->capture_default_str();
  command->add_option("--sizes", flags->sizes, "node counts of generated instances")->delimiter(',')->capture_default_str();
  command->add_option("--structures", flags->structures, "structures of generated instances")
      ->delimiter(',')
      ->capture_default_str();
  command->add_option("--candidates", flags->candidates, "candidates per conv / generated node")
      ->check(positive_number())
      ->capture_default_str();
  command->add_option("--time-limit", flags->time_limit, "seconds per solve for anytime solvers")->capture_default_str();
  command->add_flag("--save-instances", flags->save_instances, "also write every problem as an instance file");
  command->callback([flags] { run_compare(*flags); });
}

}  // namespace layoutopt::apps
