#include "aot/staged_artifact.h"

#include <fcntl.h>
#include <stdio.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <system_error>

#include "layoutopt/kernels/error.h"
#include "layoutopt/runtime/session.h"

namespace layoutopt::kernels::aot {

namespace fs = std::filesystem;

namespace {

/// The artifact's files in the order they are moved one by one: program.bin last, because
/// it names the code and seals the weights, so a folder caught between two renames is
/// refused at load rather than run with a mismatched part.
constexpr std::array kArtifactFiles{runtime::kWeightsFile, runtime::kSharedObjectFile, runtime::kProgramFile};

[[noreturn]] void fail(const std::string& what, int error) {
  throw KernelError(what + ": " + std::strerror(error));
}

/// `path` without a trailing separator, so that its file name is the folder's own.
fs::path normalized(const fs::path& path) {
  fs::path absolute = fs::absolute(path).lexically_normal();
  if (absolute.filename().empty()) absolute = absolute.parent_path();
  return absolute;
}

bool is_artifact_file(const fs::path& name) {
  for (const char* file : kArtifactFiles)
    if (name == file) return true;
  return false;
}

/// Whether `folder` holds nothing but an artifact's files (an empty folder included).
bool holds_only_an_artifact(const fs::path& folder) {
  for (const fs::directory_entry& entry : fs::directory_iterator(folder))
    if (!entry.is_regular_file() || !is_artifact_file(entry.path().filename())) return false;
  return true;
}

/// rename(2) with renameat2's flags: RENAME_NOREPLACE or RENAME_EXCHANGE. Returns errno.
int rename_with(const fs::path& from, const fs::path& to, unsigned flags) {
  return renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), flags) == 0 ? 0 : errno;
}

/// The process's umask, read without changing it (umask(2) cannot read without writing, and
/// writing races with other threads creating files).
fs::perms process_umask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Umask:", 0) == 0) return static_cast<fs::perms>(std::stoul(line.substr(6), nullptr, 8));
  return fs::perms::group_write | fs::perms::others_write;
}

/// A folder made by mkdtemp is private (0700); the artifact gets the permissions of the folder
/// it replaces, or a new folder's.
void give_permissions(const fs::path& staging, const fs::path& destination) {
  const fs::perms wanted = fs::exists(destination) ? fs::status(destination).permissions()
                                                   : fs::perms::all & ~process_umask();
  fs::permissions(staging, wanted);
}

void rename_file(const fs::path& from, const fs::path& to) {
  if (std::rename(from.c_str(), to.c_str()) != 0) fail("cannot move " + from.string() + " to " + to.string(), errno);
}

}  // namespace

StagedArtifact::StagedArtifact(const fs::path& destination) : destination_(normalized(destination)) {
  std::error_code error;
  fs::create_directories(destination_.parent_path(), error);
  if (error) throw KernelError("cannot create " + destination_.parent_path().string() + ": " + error.message());
  std::string pattern = (destination_.parent_path() / ("." + destination_.filename().string() + ".partial-XXXXXX")).string();
  if (mkdtemp(pattern.data()) == nullptr) fail("cannot create a staging folder beside " + destination_.string(), errno);
  staging_ = pattern;
}

StagedArtifact::~StagedArtifact() {
  std::error_code ignored;  // a destructor cannot report; what remains is a hidden folder of ours
  fs::remove_all(staging_, ignored);
}

void StagedArtifact::publish() {
  give_permissions(staging_, destination_);
  if (!fs::exists(destination_)) {
    const int error = rename_with(staging_, destination_, RENAME_NOREPLACE);
    if (error == 0) return;
    if (error != EEXIST && error != ENOTEMPTY) fail("cannot move the artifact to " + destination_.string(), error);
    // Made meanwhile by someone else: treat it as an existing folder below.
  }
  if (!fs::is_directory(destination_)) throw KernelError(destination_.string() + " is not a folder");
  if (holds_only_an_artifact(destination_)) {
    const int error = rename_with(staging_, destination_, RENAME_EXCHANGE);
    if (error != 0) fail("cannot swap the artifact into " + destination_.string(), error);
    return;  // staging_ now holds the old artifact, which the destructor removes
  }
  for (const char* file : kArtifactFiles) rename_file(staging_ / file, destination_ / file);
}

}  // namespace layoutopt::kernels::aot
