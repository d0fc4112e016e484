#pragma once
// Each subcommand of the `layoutopt` CLI lives in its own file under apps/commands/ and
// registers itself on the root CLI11 app. Commands stay thin: parse flags, call libraries,
// print. Errors are thrown as exceptions and turned into "layoutopt: error: ..." by main.

#include <CLI/CLI.hpp>

namespace layoutopt::apps {

void add_zoo_command(CLI::App& app);
void add_info_command(CLI::App& app);
void add_export_command(CLI::App& app);
void add_dot_command(CLI::App& app);
void add_solve_command(CLI::App& app);
void add_gen_instance_command(CLI::App& app);
void add_compare_command(CLI::App& app);
void add_cpu_command(CLI::App& app);
void add_tune_command(CLI::App& app);
void add_bench_transforms_command(CLI::App& app);
void add_plan_command(CLI::App& app);
void add_run_command(CLI::App& app);
void add_compile_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_optimize_command(CLI::App& app);

}  // namespace layoutopt::apps
