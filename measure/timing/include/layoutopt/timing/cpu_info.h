#pragma once
// Facts about the CPU that timings depend on: model, SIMD features, cores, caches, and the
// thread count OpenMP uses by default. Read from /proc/cpuinfo and sysfs on Linux, the
// features from the CPUID detector every library dispatches on (layoutopt/cpu/features.h).

#include <string>
#include <string_view>
#include <vector>

#include "layoutopt/timing/cache_info.h"

namespace layoutopt::timing {

struct CpuInfo {
  std::string vendor;              ///< e.g. "GenuineIntel", "AuthenticAMD"
  std::string model_name;          ///< e.g. "AMD EPYC 9755 128-Core Processor"
  std::vector<std::string> flags;  ///< every feature the detector checks and found, sorted, LLVM's names
  int logical_cores = 0;           ///< hardware threads
  int physical_cores = 0;          ///< distinct (package, core) pairs
  int default_threads = 0;         ///< omp_get_max_threads() at detection time
  std::vector<CacheInfo> caches;

  [[nodiscard]] bool has(std::string_view flag) const;
  /// The SIMD features relevant to CNN kernels (sse4.2, avx, avx2, fma, avx512f, avx512bw,
  /// avx512vl, avx512vnni, avx512bf16, ...) that this CPU has, in a fixed order.
  [[nodiscard]] std::vector<std::string> simd_features() const;
};

/// Parses the text of /proc/cpuinfo: vendor, model of the first CPU, the number of
/// "processor" entries and of distinct (physical id, core id) pairs. Leaves flags, caches and
/// default_threads empty. Throws std::runtime_error when no processor entry is found.
CpuInfo parse_proc_cpuinfo(std::string_view text);

/// The running machine: /proc/cpuinfo, the CPUID detector's features, sysfs caches and
/// OpenMP's default thread count.
CpuInfo detect_cpu();

}  // namespace layoutopt::timing
