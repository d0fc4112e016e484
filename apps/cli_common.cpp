#include "cli_common.h"

#include <cmath>
#include <cstdio>

namespace layoutopt::apps {

namespace {

CLI::Validator number_above(double bound, bool bound_allowed, const std::string& description) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        double value = 0;
        if (!CLI::detail::lexical_cast(text, value)) return "'" + text + "' is not a number";
        const bool fits = bound_allowed ? value >= bound : value > bound;
        return fits ? std::string() : text + " is not " + description;
      },
      description, "");
}

}  // namespace

CLI::Validator positive_number() { return number_above(0, false, "a positive number"); }

CLI::Validator non_negative_number() { return number_above(0, true, "zero or a positive number"); }

void add_model_argument(CLI::App& command, ModelArgument& argument) {
  command.add_option("MODEL", argument.spec, "built-in network (see `layoutopt zoo`), .onnx file or layoutopt .json")
      ->required();
  // Kept unset unless given: load_model refuses or warns about options a model file overrides.
  command
      .add_option_function<int64_t>(
          "--batch", [&argument](const int64_t& batch) { argument.options.batch = batch; },
          "batch size for built-in networks and ONNX files with a symbolic batch (default 1; a file's fixed batch "
          "cannot be changed)")
      ->check(positive_number());
  command.add_option_function<uint64_t>(
      "--seed", [&argument](const uint64_t& seed) { argument.options.seed = seed; },
      "seed of generated weights: built-in networks, ONNX files without weights (default 0)");
}

void add_threads_option(CLI::App& command, int& threads, const std::string& use) {
  command.add_option("--threads", threads, use + " (default: OpenMP's default)")->check(positive_number());
}

void add_quiet_flag(CLI::App& command, bool& quiet) {
  command.add_flag("--quiet", quiet, "no progress output (warnings and results are still printed)");
}

std::string with_commas(int64_t value) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<size_t>(i), ",");
  return (value < 0 ? "-" : "") + digits;
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
