#pragma once
// CPU cache hierarchy as Linux reports it in sysfs (per CPU, one indexN directory per cache).

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace layoutopt::timing {

struct CacheInfo {
  int level = 0;
  std::string type;        ///< "Data", "Instruction" or "Unified"
  int64_t size_bytes = 0;  ///< one instance
  int shared_by_cpus = 1;  ///< logical CPUs sharing one instance
};

/// Caches of one CPU, ordered by level then type; empty when the directory is missing.
/// Throws std::runtime_error naming the file when an entry cannot be parsed.
std::vector<CacheInfo> read_sysfs_caches(const std::filesystem::path& cache_dir = "/sys/devices/system/cpu/cpu0/cache");

/// Size of one instance of the highest-level data or unified cache; 0 when none is known.
int64_t last_level_cache_bytes(const std::vector<CacheInfo>& caches);

}  // namespace layoutopt::timing
