#pragma once
// The one exception type of the kernels library, so callers can tell "this desc/schedule is
// invalid" (a programming or search error) apart from other failures.

#include <stdexcept>

namespace layoutopt::kernels {

/// Raised for invalid descriptors or schedules (the message names the offending field and
/// value) and for code-generation failures.
class KernelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace layoutopt::kernels
