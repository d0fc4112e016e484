#include "layoutopt/pipeline/output_path.h"

#include <stdexcept>

namespace layoutopt::pipeline {

void check_writable(const std::filesystem::path& path, bool force, const std::string& force_hint) {
  if (std::filesystem::is_directory(path))
    throw std::runtime_error("'" + path.string() + "' is a folder; give a file name to write");
  if (std::filesystem::exists(path) && !force)
    throw std::runtime_error("'" + path.string() + "' exists; pass " + force_hint + " to overwrite it");
  const std::filesystem::path folder = path.parent_path();
  if (!folder.empty() && !std::filesystem::is_directory(folder))
    throw std::runtime_error("folder '" + folder.string() + "' does not exist");
}

}  // namespace layoutopt::pipeline
