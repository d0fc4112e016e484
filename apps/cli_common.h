#pragma once
// Pieces several subcommands share: the MODEL argument with its flags, and number formats.

#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <string>

#include "layoutopt/solvers/solution.h"
#include "model_loader.h"

namespace layoutopt::apps {

struct ModelArgument {
  std::string spec;
  ModelOptions options;
};

/// Adds the positional MODEL and the --batch / --seed flags.
void add_model_argument(CLI::App& command, ModelArgument& argument);

/// Warns on stderr when OMP_WAIT_POLICY asks for passive waiting. OpenMP threads then sleep
/// between parallel regions, and a network pays a wake-up on every one of its steps
/// (mobilenet-v2: 5.1 ms instead of 3.9 ms), so whole-network latencies come out slower
/// than users with the default (spinning) policy will see, and slower than the peers.
void warn_if_passive_openmp_wait();

/// The memory DP's tables may take when `plan` and `optimize` solve: a quarter of this
/// machine's physical memory, and at least the solvers' own default (1 GiB). The tables live
/// only while DP solves, and with a few more layout candidates per node (a normal tuning
/// budget instead of a quick one) inception-v3 needs 1.1 GiB of them: under the solvers'
/// default DP refused it and only PBQP's unproven answer was left.
[[nodiscard]] size_t dp_memory_budget();

/// 25557032 -> "25,557,032"
[[nodiscard]] std::string with_commas(int64_t value);
/// 4089184256 -> "4.09 G", 118013952 -> "118.0 M"
[[nodiscard]] std::string si_units(double value);

}  // namespace layoutopt::apps
