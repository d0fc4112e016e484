#pragma once
// What every fuzz target shares: the bytes as text or JSON, and the rule that an input may
// only be rejected with the library's own error types. Anything else escaping the library
// (std::out_of_range, nlohmann::json::type_error, std::bad_alloc, ...) is left uncaught on
// purpose: libFuzzer then reports it as a crash, and it is a bug to fix in the library.

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace layoutopt::fuzz {

inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// The document, or nullopt for bytes that are not JSON: every JSON file reader turns a parse
/// failure into its own error before it looks at the document, so such bytes end here.
inline std::optional<nlohmann::json> parse_json(const uint8_t* data, size_t size) {
  nlohmann::json document = nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) return std::nullopt;
  return document;
}

/// The bytes as a file in memory, for readers that only take a path.
class MemoryFile {
 public:
  MemoryFile(const uint8_t* data, size_t size) : fd_(::memfd_create("fuzz-input", MFD_CLOEXEC)) {
    if (fd_ < 0 || ::write(fd_, data, size) != static_cast<ssize_t>(size)) std::abort();
  }
  ~MemoryFile() { ::close(fd_); }
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;
  [[nodiscard]] std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

 private:
  int fd_;
};

/// Runs `body`, swallowing the listed error types only: the ways the library says "this input
/// is not acceptable".
template <class Error, class... More, class Body>
void rejecting_only(Body&& body) {
  try {
    if constexpr (sizeof...(More) == 0) body();
    else rejecting_only<More...>(body);
  } catch (const Error&) {
  }
}

}  // namespace layoutopt::fuzz
