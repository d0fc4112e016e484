#include "layoutopt/costs/transform_table.h"


#include <unistd.h>

#include <fstream>
#include <stdexcept>

#include "layoutopt/graph/json_number.h"

namespace layoutopt::costs {

namespace {

using nlohmann::json;

constexpr const char* kFormat = "layoutopt-transform-table";
constexpr int kVersion = 1;

// Numbers read exactly (graph/json_number.h): a damaged one makes the entry unreadable
// instead of a truncated value or an out-of-range cast.
template <class T>
T number(const json& j, const char* key) {
  return graph::read_exactly<T, std::invalid_argument>(j.at(key), key);
}
template <class T>
T number(const json& j, const char* key, T fallback) {
  return j.contains(key) ? number<T>(j, key) : fallback;
}

// A layout that does not parse makes the entry unreadable (kept verbatim), naming the field.
layout::Layout layout_of(const json& j, const char* key) {
  const std::string text = j.at(key).get<std::string>();
  try {
    return layout::Layout::parse(text);
  } catch (const layout::LayoutError& e) {
    throw std::invalid_argument(std::string(key) + " '" + text + "': " + e.what());
  }
}

}  // namespace

json to_json(const TransformEntry& e) {
  return {{"target", e.target},     {"threads", e.threads},   {"shape", e.key.shape},
          {"src", e.key.src.str()}, {"dst", e.key.dst.str()}, {"median_ms", e.median_ms},
          {"q1_ms", e.q1_ms},       {"q3_ms", e.q3_ms},       {"repeats", e.repeats},
          {"timestamp", e.timestamp}};
}

TransformEntry entry_from_json(const json& j) {
  TransformEntry e;
  e.target = j.at("target").get<std::string>();
  e.threads = number<int>(j, "threads");
  e.key = {number<std::vector<int64_t>>(j, "shape"), layout_of(j, "src"), layout_of(j, "dst")};
  e.median_ms = number<double>(j, "median_ms");
  e.q1_ms = number(j, "q1_ms", e.median_ms);
  e.q3_ms = number(j, "q3_ms", e.median_ms);
  e.repeats = number(j, "repeats", 0);
  e.timestamp = number(j, "timestamp", 0.0);
  if (!(e.median_ms >= 0)) throw std::invalid_argument("median_ms must be a non-negative number");
  return e;
}

TransformTable TransformTable::from_json(const json& j) {
  // Compared as JSON: a "format" of another type is another file, not a type error.
  if (!j.is_object() || j.value("format", json()) != kFormat || !j.contains("entries") || !j.at("entries").is_array())
    throw std::runtime_error(std::string("not a transform table (expected an object with \"format\": \"") + kFormat +
                             "\" and an \"entries\" list)");
  TransformTable table;
  const json& entries = j.at("entries");
  for (size_t i = 0; i < entries.size(); ++i) {
    try {
      table.insert(entry_from_json(entries[i]));
    } catch (const std::exception& e) {
      table.issues_.push_back({i, e.what()});
      table.unreadable_.push_back(entries[i]);
    }
  }
  return table;
}

TransformTable TransformTable::load(const std::filesystem::path& path) {
  if (!std::filesystem::exists(path)) return {};
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read transform table '" + path.string() + "'");
  try {
    return from_json(json::parse(in));
  } catch (const std::exception& e) {
    throw std::runtime_error("transform table '" + path.string() + "': " + e.what() +
                             " (the file is left untouched; pass another -o path)");
  }
}

json TransformTable::to_json() const {
  json entries = json::array();
  for (const TransformEntry& e : entries_) entries.push_back(costs::to_json(e));
  for (const json& raw : unreadable_) entries.push_back(raw);
  return {{"format", kFormat}, {"version", kVersion}, {"entries", entries}};
}

void TransformTable::save(const std::filesystem::path& path) const {
  const std::filesystem::path temporary = path.string() + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temporary);
    out << to_json().dump(1) << "\n";
    out.flush();
    if (!out) throw std::runtime_error("cannot write transform table '" + temporary.string() + "'");
  }
  std::filesystem::rename(temporary, path);
}

const TransformEntry* TransformTable::find(const std::string& target, int threads, const TransformKey& key) const {
  const auto found = index_.find({target, threads, key});
  return found == index_.end() ? nullptr : &entries_[found->second];
}

void TransformTable::insert(const TransformEntry& entry) {
  const auto [slot, added] = index_.try_emplace({entry.target, entry.threads, entry.key}, entries_.size());
  if (added)
    entries_.push_back(entry);
  else
    entries_[slot->second] = entry;
}

}  // namespace layoutopt::costs
