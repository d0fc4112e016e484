#pragma once
// Whether the running CPU has the instruction sets compiled code was generated for. An
// artifact records the features LLVM enabled for its kernels (LLVM's names: "avx2",
// "avx512f", "sse4.1"); the CPU's come from the kernel's /proc/cpuinfo flags, which name
// some of them differently ("sse4_1", "avx512_vnni"). Features that change no instruction
// our kernels can contain (e.g. "64bit", "cx8") have no entry and are not checked.

#include <string>
#include <string_view>
#include <vector>

namespace layoutopt::runtime {

/// The LLVM feature names this runtime can check.
[[nodiscard]] const std::vector<std::string>& checkable_cpu_features();

/// The features of `required` that are checkable and that this CPU lacks, in order. Throws
/// ArtifactError when the CPU's flags cannot be read.
[[nodiscard]] std::vector<std::string> missing_cpu_features(const std::vector<std::string>& required);

}  // namespace layoutopt::runtime
