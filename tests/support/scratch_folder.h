#pragma once
// A folder of a test's own under the system temp folder, emptied on creation and removed with
// the object. The process id in its name keeps suites that ctest runs side by side apart.

#include <unistd.h>

#include <filesystem>
#include <string>

namespace layoutopt::testing {

class ScratchFolder {
 public:
  explicit ScratchFolder(const std::string& name)
      : path_(std::filesystem::temp_directory_path() / ("layoutopt_" + std::to_string(::getpid()) + "_" + name)) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchFolder() { std::filesystem::remove_all(path_); }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace layoutopt::testing
