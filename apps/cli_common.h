#pragma once
// Pieces several subcommands share: the MODEL argument, --threads and --quiet with their
// checks, and number formats.
// The thread count, progress output and the OpenMP wait-policy warning every command shares
// live in the pipeline library (layoutopt/pipeline/threads.h, progress.h, openmp_wait.h).

#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <string>

#include "model_loader.h"

namespace layoutopt::apps {

/// Checks for counts, seconds and sizes. CLI11's PositiveNumber reports "Value -1 not in range
/// 0.000000 to 1797693134862315708...": these say what the flag needs ("--batch: -1 is not a
/// positive number").
[[nodiscard]] CLI::Validator positive_number();
[[nodiscard]] CLI::Validator non_negative_number();

/// Adds the positional MODEL and the --batch / --seed flags.
void add_model_argument(CLI::App& command, ModelArgument& argument);

/// Adds --threads (a positive count; unset: 0, OpenMP's default, pipeline::resolve_threads).
/// `use` says what the threads run ("OpenMP threads per measurement").
void add_threads_option(CLI::App& command, int& threads, const std::string& use);

/// Adds --quiet: no progress output (warnings and results are still printed).
void add_quiet_flag(CLI::App& command, bool& quiet);

/// 25557032 -> "25,557,032"
[[nodiscard]] std::string with_commas(int64_t value);
/// 4089184256 -> "4.09 G", 118013952 -> "118.0 M"
[[nodiscard]] std::string si_units(double value);

}  // namespace layoutopt::apps
