#pragma once
// TransformTable: measured layout-transform costs (the graph solver's edge costs), stored as
// JSON and reused across runs. An entry is keyed by target CPU, thread count, logical shape
// and (source, destination) layout:
//
//   {"format": "layoutopt-transform-table", "version": 1, "entries": [
//     {"target": "llvm -mcpu=znver5", "threads": 2, "shape": [1, 64, 56, 56],
//      "src": "NCHW", "dst": "NCHW16c", "median_ms": 0.081, "q1_ms": 0.080, "q3_ms": 0.083,
//      "repeats": 612, "timestamp": 1716810000.5}, ...]}
//
// Loading never loses data: entries that cannot be read are reported (entry number and
// reason) and written back unchanged on save, and entries of other CPUs are kept as they are.

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "layoutopt/costs/transform_key.h"

namespace layoutopt::costs {

/// Median milliseconds of transforms timed inside a compiled network, by table key
/// (network_calibration.h).
using InNetworkTransformTimes = std::map<TransformKey, double>;

struct TransformEntry {
  std::string target;
  int threads = 0;
  TransformKey key;
  double median_ms = 0;
  double q1_ms = 0;
  double q3_ms = 0;
  int repeats = 0;
  double timestamp = 0;
};

/// An entry as the table file stores it.
[[nodiscard]] nlohmann::json to_json(const TransformEntry& entry);
/// Reads an entry; throws std::invalid_argument naming the field that is missing or wrong.
[[nodiscard]] TransformEntry entry_from_json(const nlohmann::json& json);

struct TableIssue {
  size_t entry = 0;  ///< 0-based position in "entries"
  std::string reason;
};

class TransformTable {
 public:
  /// Reads `path`; a missing file is an empty table. Throws std::runtime_error naming the
  /// file when it is not JSON or not a transform table (so it is never overwritten).
  static TransformTable load(const std::filesystem::path& path);

  /// Writes the table (readable and unreadable entries) to a temporary file next to
  /// `path`, then renames it over `path`: a crash never leaves a half-written table.
  void save(const std::filesystem::path& path) const;

  [[nodiscard]] const TransformEntry* find(const std::string& target, int threads, const TransformKey& key) const;
  /// Adds an entry, or replaces the one with the same (target, threads, key).
  void insert(const TransformEntry& entry);

  [[nodiscard]] const std::vector<TransformEntry>& entries() const { return entries_; }
  [[nodiscard]] const std::vector<TableIssue>& issues() const { return issues_; }

  [[nodiscard]] nlohmann::json to_json() const;
  /// Throws std::runtime_error when `json` is not a transform table at all.
  static TransformTable from_json(const nlohmann::json& json);

 private:
  std::vector<TransformEntry> entries_;
  /// (target, threads, key) -> position in entries_: a planner looks up every transform of
  /// every pair of layouts it may pick (tens of thousands in densenet-201's table).
  std::map<std::tuple<std::string, int, TransformKey>, size_t> index_;
  std::vector<nlohmann::json> unreadable_;  ///< kept verbatim, written back on save
  std::vector<TableIssue> issues_;
};

}  // namespace layoutopt::costs
