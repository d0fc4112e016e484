#pragma once
// The -o option every writing subcommand shares. An existing file is never replaced
// silently: the user passes --force to overwrite it.

#include <CLI/CLI.hpp>
#include <filesystem>
#include <string>

namespace layoutopt::apps {

struct OutputFile {
  std::filesystem::path path;
  bool force = false;
  /// Throws when the file exists and --force was not given, or its folder is missing.
  void check_writable() const;
};

void add_output_option(CLI::App& command, OutputFile& output, const std::string& description);

/// Writes DOT text to `path`; .svg, .png and .pdf paths are rendered with Graphviz.
void write_rendered_dot(const std::string& dot, const std::filesystem::path& path);

}  // namespace layoutopt::apps
