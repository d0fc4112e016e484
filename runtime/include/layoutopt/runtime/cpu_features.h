#pragma once
// Whether the running CPU has the instruction sets compiled code was generated for. An
// artifact records the features LLVM enabled for its kernels (LLVM's names: "avx2",
// "avx512f", "sse4.1"); the CPU's are read from CPUID, as LLVM reads them (not from
// /proc/cpuinfo: in virtual machines it can omit flags CPUID reports, e.g. abm for lzcnt).
// Features without an entry (e.g. "64bit", "cx8", "xsave": no vector instruction of a
// kernel depends on them) are not checked.

#include <string>
#include <string_view>
#include <vector>

namespace layoutopt::runtime {

/// The LLVM feature names this runtime can check.
[[nodiscard]] const std::vector<std::string>& checkable_cpu_features();

/// The features of `required` that are checkable and that this CPU lacks, in order.
[[nodiscard]] std::vector<std::string> missing_cpu_features(const std::vector<std::string>& required);

}  // namespace layoutopt::runtime
