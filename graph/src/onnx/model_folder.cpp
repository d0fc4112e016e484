#include "model_folder.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>
#include <utility>

#include "layoutopt/graph/error.h"

namespace layoutopt::graph::onnx {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void refuse(const std::string& who, const std::string& why) { throw GraphError(who + " " + why); }

std::string quoted(const fs::path& path) { return "'" + path.string() + "'"; }

/// What a file that is not a regular one is, for messages ("a FIFO"); empty for a regular file.
std::string special_kind(mode_t mode) {
  if (S_ISREG(mode)) return "";
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "a special file";
}

void require_regular(mode_t mode, const std::string& who) {
  if (const std::string kind = special_kind(mode); !kind.empty()) refuse(who, "is " + kind + ", not a regular file");
}

/// True when `path` is `folder` or lies below it, both canonical: compared part by part, so
/// "/models2/x" is not inside "/models". (The folder itself is then refused as a folder.)
bool within(const fs::path& folder, const fs::path& path) {
  return std::mismatch(folder.begin(), folder.end(), path.begin(), path.end()).first == folder.end();
}

/// Only spelled-out parts may be resolved: refusing these first gives the clearer message,
/// and neither can name a file inside the folder anyway.
void require_relative_below(const std::string& location, const std::string& who) {
  // The system calls would end the path at a NUL and resolve another file than was checked.
  if (location.find('\0') != std::string::npos) refuse(who, "contains a NUL character");
  if (fs::path(location).is_absolute()) refuse(who, "is an absolute path");
  for (const fs::path& part : fs::path(location))
    if (part == "..") refuse(who, "leaves the model's directory");
}

bool is_link(const fs::path& path) {
  std::error_code ignored;
  return fs::is_symlink(fs::symlink_status(path, ignored));
}

int open_without_following(const fs::path& path, const std::string& who) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. O_NOFOLLOW: the
  // path is canonical, so a link here was put in its place after it was resolved.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0)
    refuse(who, errno == ELOOP ? "was replaced by a symbolic link while being opened"
                               : "cannot be opened: " + std::string(std::strerror(errno)));
  return fd;
}

}  // namespace

ReadOnlyFile::ReadOnlyFile(const fs::path& path, const std::string& who)
    : who_(who), fd_(open_without_following(path, who)) {
  struct stat status {};
  const int error = ::fstat(fd_, &status) == 0 ? 0 : errno;
  if (error != 0 || !S_ISREG(status.st_mode)) {
    ::close(fd_);  // the destructor does not run for a constructor that throws
    if (error != 0) refuse(who, "cannot be inspected: " + std::string(std::strerror(error)));
    require_regular(status.st_mode, who);
  }
  size_ = static_cast<uint64_t>(status.st_size);
}

ReadOnlyFile::~ReadOnlyFile() {
  if (fd_ >= 0) ::close(fd_);
}

ReadOnlyFile::ReadOnlyFile(ReadOnlyFile&& other) noexcept
    : who_(std::move(other.who_)), fd_(std::exchange(other.fd_, -1)), size_(other.size_) {}

fs::path ReadOnlyFile::opened_path() const {
  std::error_code error;
  fs::path path = fs::read_symlink("/proc/self/fd/" + std::to_string(fd_), error);
  return error ? fs::path() : path;
}

std::string ReadOnlyFile::read(uint64_t offset, uint64_t length) const {
  std::string bytes(length, '\0');
  uint64_t done = 0;
  while (done < length) {  // pread may return fewer bytes than asked for
    const ssize_t got = ::pread(fd_, bytes.data() + done, length - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) refuse(who_, "cannot be read: " + std::string(std::strerror(errno)));
    if (got == 0) refuse(who_, "became shorter while being read");
    done += static_cast<uint64_t>(got);
  }
  return bytes;
}

ModelFolder::ModelFolder(const fs::path& folder) {
  std::error_code error;
  canonical_ = fs::canonical(folder.empty() ? fs::path(".") : folder, error);
  if (error) throw GraphError("the model's folder " + quoted(folder) + " cannot be resolved: " + error.message());
}

ReadOnlyFile ModelFolder::open(const std::string& location, const std::string& who) const {
  require_relative_below(location, who);
  const fs::path resolved = resolve_inside(canonical_ / location, who);
  // Checked before opening, through every link: even a non-blocking open of a device can
  // have effects, and the descriptor is checked again for a swap in between.
  struct stat status {};
  if (::stat(resolved.c_str(), &status) != 0) refuse(who, "vanished while being resolved");
  require_regular(status.st_mode, who);
  ReadOnlyFile file(resolved, who);
  // A parent folder swapped for a link between resolving and opening would lead outside:
  // what the descriptor is open on must still lie inside.
  const fs::path opened = file.opened_path();
  if (!opened.empty() && !within(canonical_, opened))
    refuse(who, "was moved outside the model's folder " + quoted(canonical_) + " while being opened");
  return file;
}

fs::path ModelFolder::resolve_inside(const fs::path& path, const std::string& who) const {
  std::error_code error;
  const fs::path resolved = fs::canonical(path, error);
  if (error == std::errc::no_such_file_or_directory) {
    if (is_link(path)) refuse(who, "is a symbolic link to " + quoted(fs::read_symlink(path, error)) + ", which does not exist");
    refuse(who, "does not exist in the model's folder " + quoted(canonical_));
  }
  if (error) refuse(who, "cannot be resolved: " + error.message());
  if (within(canonical_, resolved)) return resolved;
  if (is_link(path)) refuse(who, "is a symbolic link to " + quoted(resolved) + " outside the model's folder " + quoted(canonical_));
  refuse(who, "resolves through a symbolic link to " + quoted(resolved) + " outside the model's folder " + quoted(canonical_));
}

}  // namespace layoutopt::graph::onnx
