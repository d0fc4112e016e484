// layoutopt: the command-line entry point. Wires subcommands together; no logic of its own.

#include <exception>
#include <iostream>

#include "commands.h"

namespace {

// CLI11 answers a misspelt subcommand with "A subcommand is required"; this names it.
bool names_unknown_subcommand(const CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return false;
  const std::string word = argv[1];
  return app.get_subcommands([&](const CLI::App* command) { return command->check_name(word); }).empty();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"layoutopt: graph-level layout optimizer for CNN inference on CPUs"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "layoutopt 0.1.0");
  using namespace layoutopt::apps;
  add_zoo_command(app);
  add_info_command(app);
  add_export_command(app);
  add_dot_command(app);
  add_solve_command(app);
  add_gen_instance_command(app);
  add_compare_command(app);
  add_cpu_command(app);
  add_tune_command(app);
  add_bench_transforms_command(app);
  add_plan_command(app);
  add_run_command(app);
  add_compile_command(app);
  add_bench_command(app);
  add_optimize_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (names_unknown_subcommand(app, argc, argv)) {
      std::cerr << "layoutopt: error: unknown subcommand '" << argv[1] << "' (see `layoutopt --help`)\n";
      return e.get_exit_code();
    }
    return app.exit(e);
  } catch (const std::exception& e) {
    std::cerr << "layoutopt: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
