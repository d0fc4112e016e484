// `layoutopt gen-instance`: write a random instance with a given structure and size.

#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "output_file.h"
#include "layoutopt/solvers/generator.h"
#include "layoutopt/solvers/instance_io.h"

namespace layoutopt::apps {

namespace {

namespace solvers = layoutopt::solvers;

struct GenArgs {
  std::string structure = "chain";
  solvers::GeneratorOptions options;
  OutputFile output;
};

void run(GenArgs& args) {
  args.options.structure = solvers::parse_structure(args.structure);
  args.output.check_writable();
  const solvers::Problem problem = solvers::generate_instance(args.options);
  solvers::save_instance(problem, args.output.path);
  std::cout << "wrote " << args.output.path.string() << ": " << problem.node_count() << " nodes, " << problem.edge_count()
            << " edges, 10^" << problem.log10_search_space() << " assignments\n";
}

}  // namespace

void add_gen_instance_command(CLI::App& app) {
  auto args = std::make_shared<GenArgs>();
  CLI::App* command = app.add_subcommand(
      "gen-instance",
      "Write a random cost-problem instance that looks like a CNN's layout-selection problem: node costs per "
      "kernel candidate, edge costs 0 when layouts agree and a transform cost otherwise.");
  std::vector<std::string> names;
  for (solvers::Structure structure : solvers::all_structures())
    names.emplace_back(solvers::structure_name(structure));
  command->add_option("--structure", args->structure,
                      "chain (VGG), residual (ResNet), inception (fan-out + concat), dense (DenseNet blocks), grid "
                      "(high treewidth), random (NASNet-like wiring)")
      ->check(CLI::IsMember(names))
      ->capture_default_str();
  command->add_option("--nodes", args->options.nodes, "number of decision nodes")
      ->check(positive_number())
      ->capture_default_str();
  command->add_option("--candidates", args->options.candidates, "candidates (kernel schedules) per node")
      ->check(positive_number())
      ->capture_default_str();
  command->add_option("--seed", args->options.seed, "random seed")->capture_default_str();
  command->add_option("--forbidden", args->options.forbidden_probability,
                      "probability that a layout transform is forbidden (infinite cost)")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  add_output_option(*command, args->output, "instance file to write (JSON)");
  command->callback([args] { run(*args); });
}

}  // namespace layoutopt::apps
