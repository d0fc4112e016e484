#include "layoutopt/cpu/features.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace cpu = layoutopt::cpu;

TEST_CASE("the detector agrees with the compiler's CPUID reader") {
  // __builtin_cpu_supports also checks the OS-enabled state (XCR0), as the detector does.
  CHECK(cpu::has_feature("avx2") == static_cast<bool>(__builtin_cpu_supports("avx2")));
  CHECK(cpu::has_feature("avx512f") == static_cast<bool>(__builtin_cpu_supports("avx512f")));
  CHECK(cpu::has_feature("fma") == static_cast<bool>(__builtin_cpu_supports("fma")));
#if !defined(__clang__)  // clang 14's builtin (the sanitized build) does not know clflushopt
  CHECK(cpu::has_feature("clflushopt") == static_cast<bool>(__builtin_cpu_supports("clflushopt")));
#endif
  CHECK(cpu::has_feature("sse2"));  // every x86-64 CPU
}

TEST_CASE("names are LLVM's") {
  const std::vector<std::string>& names = cpu::checkable_features();
  for (const char* llvm : {"sse4.1", "sse4.2", "avx512vnni", "avx512bf16", "amx-tile", "clflushopt"})
    CHECK(std::find(names.begin(), names.end(), llvm) != names.end());
  // /proc/cpuinfo's and GCC's spellings are not LLVM's: unknown, so never present.
  for (const char* other : {"sse4_2", "avx512_vnni", "amx_tile", "avx512f "}) {
    CHECK_FALSE(cpu::is_checkable(other));
    CHECK_FALSE(cpu::has_feature(other));
  }
}

TEST_CASE("present_features lists exactly the checkable features found, in order") {
  std::vector<std::string> expected;
  for (const std::string& name : cpu::checkable_features())
    if (cpu::has_feature(name)) expected.push_back(name);
  CHECK(cpu::present_features() == expected);
}

TEST_CASE("missing_features keeps the checkable absent ones of a made-up list, in order") {
  // Unknown names ("64bit", "made-up") cannot be checked, so they are never reported missing.
  const std::vector<std::string> required{"made-up", "avx512f", "64bit", "sse2", "avx2", "amx-int8"};
  std::vector<std::string> expected;
  for (const char* name : {"avx512f", "avx2", "amx-int8"})
    if (!cpu::has_feature(name)) expected.emplace_back(name);
  CHECK(cpu::missing_features(required) == expected);
  CHECK(cpu::missing_features({}).empty());
  CHECK(cpu::missing_features({"made-up", "sse2"}).empty());
}
