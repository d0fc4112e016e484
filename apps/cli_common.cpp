#include "cli_common.h"

#include <strings.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace layoutopt::apps {

void add_model_argument(CLI::App& command, ModelArgument& argument) {
  command.add_option("MODEL", argument.spec, "built-in network (see `layoutopt zoo`), .onnx file or layoutopt .json")
      ->required();
  command.add_option("--batch", argument.options.batch, "batch size for built-in networks and ONNX inputs")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command.add_option("--seed", argument.options.seed, "seed of generated weights")->capture_default_str();
}

std::string with_commas(int64_t value) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<size_t>(i), ",");
  return (value < 0 ? "-" : "") + digits;
}

size_t dp_memory_budget() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_bytes = sysconf(_SC_PAGESIZE);
  const size_t solver_default = solvers::SolveOptions{}.memory_budget_bytes;
  if (pages <= 0 || page_bytes <= 0) return solver_default;
  return std::max(solver_default, static_cast<size_t>(pages) * static_cast<size_t>(page_bytes) / 4);
}

void warn_if_passive_openmp_wait() {
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  if (policy == nullptr || strcasecmp(policy, "passive") != 0) return;
  std::cerr << "warning: OMP_WAIT_POLICY=" << policy
            << ": threads sleep between kernels and every step of a network pays a wake-up, so the "
               "network latencies measured here are pessimistic (unset it for end-to-end timings)\n";
}

std::string si_units(double value) {
  const char* suffixes[] = {"", " K", " M", " G", " T"};
  int index = 0;
  while (std::abs(value) >= 1000.0 && index < 4) {
    value /= 1000.0;
    ++index;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, index >= 3 ? "%.2f%s" : "%.1f%s", value, suffixes[index]);
  return buffer;
}

}  // namespace layoutopt::apps
