#include "layoutopt/pipeline/output_path.h"

#include <stdexcept>

#include "layoutopt/runtime/session.h"

namespace layoutopt::pipeline {

void check_replaceable(const std::filesystem::path& path, bool force, const std::string& force_hint) {
  if (std::filesystem::is_directory(path))
    throw std::runtime_error("'" + path.string() + "' is a folder; give a file name to write");
  if (std::filesystem::exists(path) && !force)
    throw std::runtime_error("'" + path.string() + "' exists; pass " + force_hint + " to overwrite it");
}

void check_writable(const std::filesystem::path& path, bool force, const std::string& force_hint) {
  check_replaceable(path, force, force_hint);
  const std::filesystem::path folder = path.parent_path();
  if (!folder.empty() && !std::filesystem::is_directory(folder))
    throw std::runtime_error("folder '" + folder.string() + "' does not exist");
}

void check_artifact_writable(const std::filesystem::path& folder, bool force, const std::string& force_hint) {
  if (std::filesystem::exists(folder) && !std::filesystem::is_directory(folder))
    throw std::runtime_error("'" + folder.string() + "' is a file; give compile a folder");
  if (force) return;
  for (const char* file : {runtime::kProgramFile, runtime::kSharedObjectFile, runtime::kWeightsFile})
    if (std::filesystem::exists(folder / file))
      throw std::runtime_error("'" + folder.string() + "' holds an artifact ('" + file + "' exists); pass " + force_hint +
                               " to replace it");
}

}  // namespace layoutopt::pipeline
