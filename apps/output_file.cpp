#include "output_file.h"

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "layoutopt/pipeline/output_path.h"

namespace layoutopt::apps {

void OutputFile::check_writable() const { pipeline::check_writable(path, force, "--force"); }

void add_output_option(CLI::App& command, OutputFile& output, const std::string& description) {
  command.add_option("-o,--output", output.path, description)->required();
  command.add_flag("--force", output.force, "overwrite the output file if it exists");
}

void write_rendered_dot(const std::string& dot, const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  if (ext != ".svg" && ext != ".png" && ext != ".pdf") {
    std::ofstream out(path);
    out << dot;
    if (!out) throw std::runtime_error("failed writing '" + path.string() + "'");
    return;
  }
  // Graphviz reads the graph on stdin; the path is quoted for the shell.
  std::string quoted = "'";
  for (char ch : path.string()) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  quoted += "'";
  const std::string command = "dot -T" + ext.substr(1) + " -o " + quoted + " 2>&1";
  FILE* pipe = popen(command.c_str(), "w");
  if (!pipe) throw std::runtime_error("cannot start Graphviz `dot`");
  std::fwrite(dot.data(), 1, dot.size(), pipe);
  const int status = pclose(pipe);
  if (status != 0)
    throw std::runtime_error("Graphviz `dot` failed rendering '" + path.string() +
                             "' (is graphviz installed? write a .dot file instead)");
}

}  // namespace layoutopt::apps
