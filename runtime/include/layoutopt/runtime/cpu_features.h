#pragma once
// The artifact check's names for the CPU detector of layoutopt/cpu/features.h: an artifact
// records the features LLVM enabled for its kernels (LLVM's names), and loading it asks the
// same CPUID reader as kernel dispatch and the JIT, so they never disagree.

#include <string>
#include <vector>

#include "layoutopt/cpu/features.h"

namespace layoutopt::runtime {

/// The LLVM feature names the runtime can check (cpu::checkable_features).
[[nodiscard]] inline const std::vector<std::string>& checkable_cpu_features() { return cpu::checkable_features(); }

/// The features of `required` that are checkable and that this CPU lacks, in order.
[[nodiscard]] inline std::vector<std::string> missing_cpu_features(const std::vector<std::string>& required) {
  return cpu::missing_features(required);
}

}  // namespace layoutopt::runtime
