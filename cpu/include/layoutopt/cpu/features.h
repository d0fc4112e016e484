#pragma once
// Whether the running CPU (and its OS) supports an instruction set, by LLVM's feature name
// ("avx2", "avx512f", "sse4.1", "clflushopt"). Read from CPUID and XGETBV, as LLVM reads them
// when it picks the JIT's features, rather than from /proc/cpuinfo (in virtual machines it can
// omit flags CPUID reports, e.g. abm for lzcnt) or __builtin_cpu_supports (whose feature names
// differ between GCC and clang versions). Features without an entry (e.g. "64bit", "cx8",
// "xsave": no instruction a kernel emits depends on them) are not checkable.

#include <string>
#include <string_view>
#include <vector>

namespace layoutopt::cpu {

/// The LLVM feature names this detector can check, in a fixed order.
[[nodiscard]] const std::vector<std::string>& checkable_features();

/// Whether `llvm_name` is one of checkable_features().
[[nodiscard]] bool is_checkable(std::string_view llvm_name);

/// Whether this CPU has `llvm_name` with its register state enabled; false when not checkable.
[[nodiscard]] bool has_feature(std::string_view llvm_name);

/// The checkable features this CPU has, in the order of checkable_features().
[[nodiscard]] std::vector<std::string> present_features();

/// The features of `required` that are checkable and that this CPU lacks, in order.
[[nodiscard]] std::vector<std::string> missing_features(const std::vector<std::string>& required);

}  // namespace layoutopt::cpu
