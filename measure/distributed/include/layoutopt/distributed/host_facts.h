#pragma once
// Host facts: what must be equal on every rank of a distributed tuning run before anything
// is timed, since every record lands in one log under one target: CPU model, SIMD features,
// measured FMA peak (within a tolerance: the same CPU measures a few percent apart) and thread
// count. Ranks on the same machine would disturb each other's timings, so a shared host is
// refused too, unless a test asks for it.

#include <optional>
#include <string>
#include <vector>

namespace layoutopt::distributed {

struct HostFacts {
  std::string host;                   ///< host name
  std::string cpu_model;              ///< /proc/cpuinfo's model name
  std::vector<std::string> features;  ///< SIMD features, in the detector's fixed order
  double fma_gflops = 0;              ///< measured fp32 FMA peak on `threads` threads
  int threads = 0;                    ///< OpenMP threads per measurement
  int usable_cpus = 0;                ///< CPUs this process may run on (mpirun may bind it to fewer)
};

struct HostRules {
  double peak_tolerance = 0.15;    ///< largest relative FMA-peak difference from rank 0
  bool allow_shared_host = false;  ///< testing only: ranks on one host time each other's noise
};

/// This machine's facts, measuring the FMA peak on `threads` threads (a few hundred ms).
[[nodiscard]] HostFacts detect_host_facts(int threads);

/// Why the ranks (facts by rank; each must be free to run on at least its thread count of CPUs; rank 0 is the reference, as it plans afterwards) must not
/// tune together, naming the first rank that differs and how; nullopt when they may.
[[nodiscard]] std::optional<std::string> host_mismatch(const std::vector<HostFacts>& ranks, const HostRules& rules);

}  // namespace layoutopt::distributed
