#include "layoutopt/timing/cache_info.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

using layoutopt::timing::CacheInfo;
using layoutopt::timing::last_level_cache_bytes;
using layoutopt::timing::read_sysfs_caches;

namespace {

// A throwaway copy of the sysfs cache directory layout.
struct FakeSysfs {
  std::filesystem::path root = std::filesystem::temp_directory_path() / "layoutopt_cache_info_test";
  FakeSysfs() { std::filesystem::remove_all(root); }
  ~FakeSysfs() { std::filesystem::remove_all(root); }
  void add(const std::string& index, const std::string& level, const std::string& type, const std::string& size,
           const std::string& shared) const {
    const std::filesystem::path dir = root / index;
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "level") << level << "\n";
    std::ofstream(dir / "type") << type << "\n";
    std::ofstream(dir / "size") << size << "\n";
    std::ofstream(dir / "shared_cpu_list") << shared << "\n";
  }
};

}  // namespace

TEST_CASE("sysfs cache entries are parsed and ordered") {
  const FakeSysfs sysfs;
  sysfs.add("index3", "3", "Unified", "32768K", "0-7,16-23");
  sysfs.add("index0", "1", "Data", "48K", "0,16");
  sysfs.add("index1", "1", "Instruction", "32K", "0,16");
  sysfs.add("index2", "2", "Unified", "1M", "0,16");
  const auto caches = read_sysfs_caches(sysfs.root);
  REQUIRE(caches.size() == 4);
  CHECK(caches[0].level == 1);
  CHECK(caches[0].type == "Data");
  CHECK(caches[0].size_bytes == 48 * 1024);
  CHECK(caches[1].type == "Instruction");
  CHECK(caches[2].size_bytes == 1024 * 1024);
  CHECK(caches[3].shared_by_cpus == 16);
  CHECK(caches[0].shared_by_cpus == 2);
  CHECK(last_level_cache_bytes(caches) == 32 * 1024 * 1024);
}

TEST_CASE("missing or malformed sysfs entries") {
  const FakeSysfs sysfs;
  CHECK(read_sysfs_caches(sysfs.root).empty());
  CHECK(last_level_cache_bytes({}) == 0);
  sysfs.add("index0", "1", "Data", "48Q", "0");
  CHECK_THROWS_WITH_AS(read_sysfs_caches(sysfs.root), doctest::Contains("bad number '48Q'"), std::runtime_error);
}

TEST_CASE("this machine reports its caches") {
  const auto caches = read_sysfs_caches();
  if (caches.empty()) return;  // containers without sysfs: nothing to check
  for (const CacheInfo& cache : caches) {
    CHECK(cache.level >= 1);
    CHECK(cache.size_bytes > 0);
    CHECK(cache.shared_by_cpus >= 1);
  }
  CHECK(last_level_cache_bytes(caches) >= caches.front().size_bytes);
}
