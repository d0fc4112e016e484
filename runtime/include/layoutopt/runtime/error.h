#pragma once
// The one exception type of the kernels library and the runtime under it, so callers can
// tell "this desc/schedule is invalid" (a programming or search error) apart from other
// failures. Artifacts that cannot be loaded raise ArtifactError (artifact_error.h) instead.

#include <stdexcept>

namespace layoutopt::runtime {

/// Raised for invalid descriptors or schedules (the message names the offending field and
/// value) and for code-generation failures.
class KernelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace layoutopt::runtime
