#pragma once
// A shared object opened with dlopen, closed when the handle goes.

#include <filesystem>
#include <memory>
#include <string>

#include "layoutopt/runtime/kernel.h"

namespace layoutopt::runtime::detail {

class SharedObject {
 public:
  /// Throws ArtifactError with dlerror's reason.
  explicit SharedObject(const std::filesystem::path& path);
  /// The function `symbol`, or nullptr.
  [[nodiscard]] KernelFunction function(const std::string& symbol) const;

 private:
  struct Close {
    void operator()(void* handle) const;
  };
  std::unique_ptr<void, Close> handle_;
};

}  // namespace layoutopt::runtime::detail
