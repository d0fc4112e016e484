#pragma once
// StagedArtifact: an artifact written in a folder of its own beside its destination, then
// moved into place by renames, so that a compile that fails or is killed midway leaves the
// destination as it was (the old artifact still loads), and nothing the compile did not
// create is ever removed. A compile killed outright leaves only its hidden staging folder
// (".<name>.partial-XXXXXX" beside the destination).

#include <filesystem>

namespace layoutopt::kernels::aot {

class StagedArtifact {
 public:
  /// Makes a fresh staging folder beside `destination` (on the same file system, so that
  /// moving into place is a rename). Throws KernelError when it cannot.
  explicit StagedArtifact(const std::filesystem::path& destination);
  /// Removes the staging folder and what it holds, which is all ours.
  ~StagedArtifact();
  StagedArtifact(const StagedArtifact&) = delete;
  StagedArtifact& operator=(const StagedArtifact&) = delete;

  /// Where the artifact's files are written.
  [[nodiscard]] const std::filesystem::path& folder() const { return staging_; }

  /// Moves the artifact into `destination`. A destination that does not exist, or holds
  /// nothing but an artifact's files, is swapped in whole by one rename (atomic: a reader sees
  /// the old artifact or the new one). A folder that also holds other files gets the
  /// artifact's files one rename each, program.bin last, and keeps its other files.
  void publish();

 private:
  std::filesystem::path destination_;
  std::filesystem::path staging_;
};

}  // namespace layoutopt::kernels::aot
