#include "layoutopt/timing/cache_info.h"

#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <string_view>

namespace layoutopt::timing {

namespace {

std::string read_line(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error("cannot read " + file.string());
  return line;
}

// "2", "48K", "2048K", "32M" -> 2, 49152, ...
int64_t parse_number(const std::string& text, const std::filesystem::path& file) {
  size_t digits = 0;
  int64_t value = 0;
  try {
    value = std::stoll(text, &digits);
  } catch (const std::exception&) {
    throw std::runtime_error("bad number '" + text + "' in " + file.string());
  }
  const std::string_view suffix = std::string_view(text).substr(digits);
  if (suffix.empty()) return value;
  if (suffix == "K") return value << 10;
  if (suffix == "M") return value << 20;
  if (suffix == "G") return value << 30;
  throw std::runtime_error("bad number '" + text + "' in " + file.string());
}

// "0-3,8,10-11" -> 7 CPUs.
int count_cpus(const std::string& list, const std::filesystem::path& file) {
  int count = 0;
  size_t start = 0;
  while (start < list.size()) {
    const size_t comma = std::min(list.find(',', start), list.size());
    const std::string range = list.substr(start, comma - start);
    const size_t dash = range.find('-');
    try {
      count += dash == std::string::npos ? 1 : std::stoi(range.substr(dash + 1)) - std::stoi(range) + 1;
    } catch (const std::exception&) {
      throw std::runtime_error("bad CPU list '" + list + "' in " + file.string());
    }
    start = comma + 1;
  }
  return std::max(count, 1);
}

CacheInfo read_cache(const std::filesystem::path& index) {
  CacheInfo cache;
  cache.level = static_cast<int>(parse_number(read_line(index / "level"), index / "level"));
  cache.type = read_line(index / "type");
  cache.size_bytes = parse_number(read_line(index / "size"), index / "size");
  const std::filesystem::path shared = index / "shared_cpu_list";
  if (std::filesystem::exists(shared)) cache.shared_by_cpus = count_cpus(read_line(shared), shared);
  return cache;
}

}  // namespace

std::vector<CacheInfo> read_sysfs_caches(const std::filesystem::path& cache_dir) {
  std::vector<CacheInfo> caches;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(cache_dir, error))
    if (entry.path().filename().string().starts_with("index")) caches.push_back(read_cache(entry.path()));
  std::sort(caches.begin(), caches.end(), [](const CacheInfo& a, const CacheInfo& b) {
    return a.level != b.level ? a.level < b.level : a.type < b.type;
  });
  return caches;
}

int64_t last_level_cache_bytes(const std::vector<CacheInfo>& caches) {
  int64_t bytes = 0;
  int level = 0;
  for (const CacheInfo& cache : caches)
    if (cache.type != "Instruction" && cache.level >= level) {
      level = cache.level;
      bytes = cache.size_bytes;
    }
  return bytes;
}

}  // namespace layoutopt::timing
