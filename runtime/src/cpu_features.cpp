#include "layoutopt/runtime/cpu_features.h"

#include <algorithm>
#include <utility>

namespace layoutopt::runtime {

namespace {

using Check = bool (*)();

// GCC's __builtin_cpu_supports reads CPUID, as LLVM does when it picks the JIT's features,
// and spells these instruction sets as LLVM does; its argument must be a literal.
#define FEATURE(name) \
  std::pair<std::string, Check> { name, [] { return __builtin_cpu_supports(name) != 0; } }

/// LLVM feature name -> whether this CPU has it: the instruction sets code generation may use.
const std::vector<std::pair<std::string, Check>>& feature_checks() {
  static const std::vector<std::pair<std::string, Check>> table = {
      FEATURE("sse"),
      FEATURE("sse2"),
      FEATURE("sse3"),
      FEATURE("ssse3"),
      FEATURE("sse4.1"),
      FEATURE("sse4.2"),
      FEATURE("sse4a"),
      FEATURE("avx"),
      FEATURE("avx2"),
      FEATURE("fma"),
      FEATURE("fma4"),
      FEATURE("xop"),
      FEATURE("f16c"),
      FEATURE("popcnt"),
      FEATURE("lzcnt"),
      FEATURE("bmi"),
      FEATURE("bmi2"),
      FEATURE("movbe"),
      FEATURE("aes"),
      FEATURE("pclmul"),
      FEATURE("sha"),
      FEATURE("avxvnni"),
      FEATURE("avx512f"),
      FEATURE("avx512cd"),
      FEATURE("avx512bw"),
      FEATURE("avx512dq"),
      FEATURE("avx512vl"),
      FEATURE("avx512ifma"),
      FEATURE("avx512vbmi"),
      FEATURE("avx512vbmi2"),
      FEATURE("avx512vnni"),
      FEATURE("avx512bitalg"),
      FEATURE("avx512vpopcntdq"),
      FEATURE("avx512bf16"),
      FEATURE("avx512fp16"),
      FEATURE("avx512er"),
      FEATURE("avx512pf"),
      FEATURE("avx512vp2intersect"),
      FEATURE("gfni"),
      FEATURE("vaes"),
      FEATURE("vpclmulqdq"),
      FEATURE("amx-tile"),
      FEATURE("amx-bf16"),
      FEATURE("amx-int8"),
  };
  return table;
}

#undef FEATURE

}  // namespace

const std::vector<std::string>& checkable_cpu_features() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const auto& [feature, check] : feature_checks()) list.push_back(feature);
    return list;
  }();
  return names;
}

std::vector<std::string> missing_cpu_features(const std::vector<std::string>& required) {
  __builtin_cpu_init();
  const auto& table = feature_checks();
  std::vector<std::string> missing;
  for (const std::string& feature : required) {
    const auto entry = std::find_if(table.begin(), table.end(), [&](const auto& e) { return e.first == feature; });
    if (entry != table.end() && !entry->second()) missing.push_back(feature);
  }
  return missing;
}

}  // namespace layoutopt::runtime
