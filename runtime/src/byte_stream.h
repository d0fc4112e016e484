#pragma once
// Little-endian integers, strings and lists in a byte buffer, for the artifact's files.
// The reader checks every read against the end and every count against the bytes left, so
// malformed input raises ArtifactError, never reads out of bounds or allocates without bound.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "layoutopt/runtime/artifact_error.h"

namespace layoutopt::runtime::detail {

static_assert(std::endian::native == std::endian::little, "artifact files are little-endian, as this host");

class ByteWriter {
 public:
  template <class T>
    requires std::is_integral_v<T>
  void integer(T value) {
    const size_t at = bytes_.size();
    bytes_.resize(at + sizeof(T));
    std::memcpy(bytes_.data() + at, &value, sizeof(T));
  }
  void boolean(bool value) { integer<uint8_t>(value ? 1 : 0); }
  void string(const std::string& text) {
    integer<uint64_t>(text.size());
    const auto* p = reinterpret_cast<const std::byte*>(text.data());
    bytes_.insert(bytes_.end(), p, p + text.size());
  }
  void count(size_t n) { integer<uint64_t>(n); }
  [[nodiscard]] std::vector<std::byte>& bytes() { return bytes_; }

 private:
  std::vector<std::byte> bytes_;
};

class ByteReader {
 public:
  ByteReader(std::span<const std::byte> bytes, std::string file) : bytes_(bytes), file_(std::move(file)) {}

  template <class T>
    requires std::is_integral_v<T>
  T integer(const char* what) {
    need(sizeof(T), what);
    T value{};
    std::memcpy(&value, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return value;
  }
  bool boolean(const char* what) {
    const auto value = integer<uint8_t>(what);
    if (value > 1) fail(std::string(what) + " is " + std::to_string(value) + ", not a boolean");
    return value == 1;
  }
  std::string string(const char* what) {
    const size_t size = count(what);
    std::string text(reinterpret_cast<const char*>(bytes_.data() + at_), size);
    at_ += size;
    return text;
  }
  /// A list length: at most the bytes left, as every element takes one byte or more.
  size_t count(const char* what) {
    const auto n = integer<uint64_t>(what);
    if (n > bytes_.size() - at_)
      fail(std::string(what) + " claims " + std::to_string(n) + " entries with " + std::to_string(bytes_.size() - at_) +
           " bytes left");
    return static_cast<size_t>(n);
  }
  /// An enumerator of E, checked against its last value.
  template <class E>
  E enumerator(E last, const char* what) {
    const auto value = integer<uint8_t>(what);
    if (value > static_cast<uint8_t>(last)) fail(std::string(what) + " has unknown value " + std::to_string(value));
    return static_cast<E>(value);
  }
  [[nodiscard]] bool at_end() const { return at_ == bytes_.size(); }
  [[nodiscard]] size_t offset() const { return at_; }
  [[noreturn]] void fail(const std::string& what) const {
    throw ArtifactError(file_ + ": " + what + " (at byte " + std::to_string(at_) + ")");
  }

 private:
  void need(size_t size, const char* what) const {
    if (size > bytes_.size() - at_)
      throw ArtifactError(file_ + " is truncated: " + std::string(what) + " needs " + std::to_string(size) +
                          " bytes at byte " + std::to_string(at_) + ", " + std::to_string(bytes_.size() - at_) + " left");
  }

  std::span<const std::byte> bytes_;
  std::string file_;
  size_t at_ = 0;
};

}  // namespace layoutopt::runtime::detail
