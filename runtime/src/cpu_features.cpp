#include "layoutopt/runtime/cpu_features.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <utility>

#include "layoutopt/runtime/artifact_error.h"

namespace layoutopt::runtime {

namespace {

/// LLVM feature name -> /proc/cpuinfo flag: the instruction sets code generation may use.
const std::vector<std::pair<std::string, std::string>>& feature_flags() {
  static const std::vector<std::pair<std::string, std::string>> table = {
      {"sse", "sse"},           {"sse2", "sse2"},           {"sse3", "pni"},
      {"ssse3", "ssse3"},       {"sse4.1", "sse4_1"},       {"sse4.2", "sse4_2"},
      {"sse4a", "sse4a"},       {"avx", "avx"},             {"avx2", "avx2"},
      {"fma", "fma"},           {"fma4", "fma4"},           {"xop", "xop"},
      {"f16c", "f16c"},         {"popcnt", "popcnt"},       {"lzcnt", "abm"},
      {"bmi", "bmi1"},          {"bmi2", "bmi2"},           {"movbe", "movbe"},
      {"avxvnni", "avx_vnni"},  {"avx512f", "avx512f"},     {"avx512cd", "avx512cd"},
      {"avx512bw", "avx512bw"}, {"avx512dq", "avx512dq"},   {"avx512vl", "avx512vl"},
      {"avx512ifma", "avx512ifma"}, {"avx512vbmi", "avx512vbmi"}, {"avx512vbmi2", "avx512_vbmi2"},
      {"avx512vnni", "avx512_vnni"}, {"avx512bitalg", "avx512_bitalg"},
      {"avx512vpopcntdq", "avx512_vpopcntdq"}, {"avx512bf16", "avx512_bf16"}, {"avx512fp16", "avx512_fp16"},
      {"avx512er", "avx512er"}, {"avx512pf", "avx512pf"},   {"gfni", "gfni"},
      {"vaes", "vaes"},         {"vpclmulqdq", "vpclmulqdq"}, {"amx-tile", "amx_tile"},
      {"amx-bf16", "amx_bf16"}, {"amx-int8", "amx_int8"},
  };
  return table;
}

/// The flags of the first processor in /proc/cpuinfo.
std::set<std::string> cpu_flags() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    std::set<std::string> flags;
    for (std::string flag; words >> flag;) flags.insert(flag);
    return flags;
  }
  throw ArtifactError("cannot read this CPU's instruction sets: /proc/cpuinfo has no flags line");
}

}  // namespace

const std::vector<std::string>& checkable_cpu_features() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const auto& [feature, flag] : feature_flags()) list.push_back(feature);
    return list;
  }();
  return names;
}

std::vector<std::string> missing_cpu_features(const std::vector<std::string>& required) {
  const std::set<std::string> flags = cpu_flags();
  std::vector<std::string> missing;
  for (const std::string& feature : required) {
    const auto& table = feature_flags();
    const auto entry = std::find_if(table.begin(), table.end(), [&](const auto& e) { return e.first == feature; });
    if (entry != table.end() && !flags.contains(entry->second)) missing.push_back(feature);
  }
  return missing;
}

}  // namespace layoutopt::runtime
