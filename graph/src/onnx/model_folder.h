#pragma once
// The folder of an ONNX model, as the only place its external data may come from. A model is
// untrusted input: a location that is a symbolic link to /etc/passwd, or a path through a
// linked folder, must not turn another file into weights, and a FIFO or device must not
// block the import. So a location counts only when its canonical path (every link resolved)
// is a regular file inside the folder's canonical path, as ONNX Runtime also requires. Linux
// only (POSIX descriptors, pread).

#include <cstdint>
#include <filesystem>
#include <string>

namespace layoutopt::graph::onnx {

/// A regular file opened for reading; its size is the opened descriptor's, not the path's.
class ReadOnlyFile {
 public:
  /// Opens `path` without following a final link and without blocking, and refuses
  /// anything but a regular file: the type checked on the descriptor itself, so a file
  /// swapped for a FIFO after it was inspected is still refused. `who` starts messages.
  ReadOnlyFile(const std::filesystem::path& path, const std::string& who);
  ~ReadOnlyFile();
  ReadOnlyFile(ReadOnlyFile&& other) noexcept;
  ReadOnlyFile& operator=(ReadOnlyFile&&) = delete;
  ReadOnlyFile(const ReadOnlyFile&) = delete;
  ReadOnlyFile& operator=(const ReadOnlyFile&) = delete;

  [[nodiscard]] uint64_t size() const { return size_; }
  /// The path the kernel says the descriptor is open on (/proc/self/fd), whatever was swapped
  /// along the way; empty when it cannot say.
  [[nodiscard]] std::filesystem::path opened_path() const;
  /// `length` bytes from `offset`; the caller has checked they lie within size().
  [[nodiscard]] std::string read(uint64_t offset, uint64_t length) const;

 private:
  std::string who_;
  int fd_;  ///< -1 once moved from
  uint64_t size_ = 0;
};

class ModelFolder {
 public:
  /// Throws GraphError when `folder` (empty: the working folder) cannot be resolved.
  explicit ModelFolder(const std::filesystem::path& folder);

  /// The regular file `location` names inside the folder, opened. Throws GraphError whose
  /// message starts with `who` and says why otherwise: an absolute path, a '..' part, a
  /// missing file, a canonical path outside the folder (a symbolic link or a linked folder),
  /// a folder, a FIFO, a device or a socket.
  [[nodiscard]] ReadOnlyFile open(const std::string& location, const std::string& who) const;

  [[nodiscard]] const std::filesystem::path& canonical() const { return canonical_; }

 private:
  /// The canonical path of `path` (folder_ / location), checked to exist and lie inside.
  [[nodiscard]] std::filesystem::path resolve_inside(const std::filesystem::path& path, const std::string& who) const;

  std::filesystem::path canonical_;
};

}  // namespace layoutopt::graph::onnx
