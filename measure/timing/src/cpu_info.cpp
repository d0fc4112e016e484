#include "layoutopt/timing/cpu_info.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

namespace layoutopt::timing {

namespace {

// SIMD features worth reporting for CNN kernels, in the order they are printed.
constexpr std::array<std::string_view, 14> kSimdFeatures{
    "sse4_2",   "avx",         "avx2",        "fma",         "avx512f",  "avx512dq", "avx512bw",
    "avx512vl", "avx512_vnni", "avx512_bf16", "avx512_fp16", "avx_vnni", "amx_tile", "amx_bf16"};

std::string_view trim(std::string_view text) {
  const size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return {};
  return text.substr(begin, text.find_last_not_of(" \t") - begin + 1);
}

std::vector<std::string> split_words(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  std::sort(words.begin(), words.end());
  return words;
}

// Without /proc/cpuinfo, ask the compiler's cpuid wrapper for the features that matter.
std::vector<std::string> builtin_flags() {
  std::vector<std::string> flags;
#if defined(__x86_64__)
  const std::pair<const char*, bool> known[] = {
      {"sse4_2", __builtin_cpu_supports("sse4.2")},     {"avx", __builtin_cpu_supports("avx")},
      {"avx2", __builtin_cpu_supports("avx2")},         {"fma", __builtin_cpu_supports("fma")},
      {"avx512f", __builtin_cpu_supports("avx512f")},   {"avx512dq", __builtin_cpu_supports("avx512dq")},
      {"avx512bw", __builtin_cpu_supports("avx512bw")}, {"avx512vl", __builtin_cpu_supports("avx512vl")}};
  for (const auto& [name, present] : known)
    if (present) flags.emplace_back(name);
#endif
  std::sort(flags.begin(), flags.end());  // CpuInfo::has searches a sorted list
  return flags;
}

}  // namespace

bool CpuInfo::has(std::string_view flag) const { return std::binary_search(flags.begin(), flags.end(), flag); }

std::vector<std::string> CpuInfo::simd_features() const {
  std::vector<std::string> present;
  for (const std::string_view feature : kSimdFeatures)
    if (has(feature)) present.emplace_back(feature);
  return present;
}

CpuInfo parse_proc_cpuinfo(std::string_view text) {
  CpuInfo info;
  std::set<std::pair<std::string, std::string>> cores;  // (physical id, core id)
  std::string package;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string_view key = trim(std::string_view(line).substr(0, colon));
    const std::string_view value = trim(std::string_view(line).substr(colon + 1));
    if (key == "processor") ++info.logical_cores;
    // Only the first processor's identity and flags are kept; Linux lists the same for all.
    const bool first = info.logical_cores == 1;
    if (first && key == "vendor_id") info.vendor = value;
    if (first && key == "model name") info.model_name = value;
    if (first && (key == "flags" || key == "Features")) info.flags = split_words(value);
    if (key == "physical id") package = value;
    if (key == "core id") cores.emplace(package, value);
  }
  if (info.logical_cores == 0) throw std::runtime_error("cpuinfo: no 'processor' entry found");
  info.physical_cores = cores.empty() ? info.logical_cores : static_cast<int>(cores.size());
  return info;
}

CpuInfo detect_cpu() {
  std::ifstream file("/proc/cpuinfo");
  std::ostringstream text;
  text << file.rdbuf();
  CpuInfo info;
  if (file && !text.str().empty()) {
    info = parse_proc_cpuinfo(text.str());
  } else {
    info.vendor = "unknown";
    info.model_name = "unknown";
    info.flags = builtin_flags();
    info.logical_cores = info.physical_cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }
  info.default_threads = omp_get_max_threads();
  info.caches = read_sysfs_caches();
  return info;
}

}  // namespace layoutopt::timing
