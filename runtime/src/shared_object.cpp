#include "shared_object.h"

#include <dlfcn.h>

#include "layoutopt/runtime/artifact_error.h"

namespace layoutopt::runtime::detail {

void SharedObject::Close::operator()(void* handle) const { dlclose(handle); }

SharedObject::SharedObject(const std::filesystem::path& path) {
  // RTLD_NOW: a missing symbol shows at load, not in the middle of a run.
  handle_.reset(dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL));
  if (!handle_) {
    const char* reason = dlerror();
    throw ArtifactError("cannot load " + path.string() + ": " + (reason != nullptr ? reason : "unknown reason"));
  }
}

KernelFunction SharedObject::function(const std::string& symbol) const {
  return reinterpret_cast<KernelFunction>(dlsym(handle_.get(), symbol.c_str()));
}

}  // namespace layoutopt::runtime::detail
