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

#include "layoutopt/cpu/features.h"

namespace layoutopt::timing {

namespace {

// SIMD features worth reporting for CNN kernels (LLVM's names), in the order they are printed.
constexpr std::array<std::string_view, 14> kSimdFeatures{
    "sse4.2",   "avx",        "avx2",       "fma",        "avx512f", "avx512dq", "avx512bw",
    "avx512vl", "avx512vnni", "avx512bf16", "avx512fp16", "avxvnni", "amx-tile", "amx-bf16"};

std::string_view trim(std::string_view text) {
  const size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return {};
  return text.substr(begin, text.find_last_not_of(" \t") - begin + 1);
}

// The detector every library dispatches on, not /proc/cpuinfo: in virtual machines that file
// can omit flags CPUID reports, and the report must agree with what the kernels run.
std::vector<std::string> detected_flags() {
  std::vector<std::string> flags = cpu::present_features();
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
    // Only the first processor's identity is kept; Linux lists the same for all.
    const bool first = info.logical_cores == 1;
    if (first && key == "vendor_id") info.vendor = value;
    if (first && key == "model name") info.model_name = value;
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
    info.logical_cores = info.physical_cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }
  info.flags = detected_flags();
  info.default_threads = omp_get_max_threads();
  info.caches = read_sysfs_caches();
  return info;
}

}  // namespace layoutopt::timing
