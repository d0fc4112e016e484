#include "layoutopt/tuning/task_args.h"

#include <algorithm>

#include "layoutopt/graph/json_number.h"

namespace layoutopt::tuning {

namespace {

using nlohmann::json;

json tensor(const std::vector<int64_t>& shape, const std::string& dtype) { return json::array({"TENSOR", shape, dtype}); }

// `value` as integers, `size` of them (any number when 0), or nullopt: nlohmann converts a
// float to an integer by a cast, undefined for one outside int64's range (a damaged
// record's 1e102), so nothing but exact integers is converted.
std::optional<std::vector<int64_t>> integers(const json& value, size_t size = 0) {
  if (!graph::reads_exactly<std::vector<int64_t>>(value) || (size != 0 && value.size() != size)) return std::nullopt;
  return value.get<std::vector<int64_t>>();
}

template <size_t N>
bool read_integers(const json& value, std::array<int64_t, N>& into) {
  const std::optional<std::vector<int64_t>> read = integers(value, N);
  if (read) std::ranges::copy(*read, into.begin());
  return read.has_value();
}

}  // namespace

json autotvm_args(const TaskKey& key) {
  json args = json::array({tensor(key.data, key.dtype), tensor(key.weight, key.dtype)});
  if (key.family == TaskFamily::dense) {
    args.push_back(nullptr);  // no bias
    args.push_back(key.dtype);
    return args;
  }
  args.push_back(key.strides);
  args.push_back(key.padding);
  args.push_back(key.dilation);
  if (key.family == TaskFamily::group_conv2d) {
    args.push_back(key.groups);
  } else {
    args.push_back(key.layout);
    args.push_back(key.out_layout);
  }
  args.push_back(key.dtype);
  return args;
}

std::optional<TaskKey> task_key_of(std::string_view name, const json& args) {
  const std::optional<TaskFamily> family = task_family(name);
  if (!family || !args.is_array() || args.size() < 4) return std::nullopt;
  try {
    TaskKey key;
    key.family = *family;
    const std::optional<std::vector<int64_t>> data = integers(args.at(0).at(1));
    const std::optional<std::vector<int64_t>> weight = integers(args.at(1).at(1));
    if (!data || !weight) return std::nullopt;
    key.data = *data;
    key.weight = *weight;
    key.dtype = args.back().get<std::string>();
    if (*family != TaskFamily::dense) {
      if (!read_integers(args.at(2), key.strides) || !read_integers(args.at(3), key.padding) ||
          !read_integers(args.at(4), key.dilation))
        return std::nullopt;
      if (*family == TaskFamily::group_conv2d) {
        const std::optional<int64_t> groups = graph::exact_number<int64_t>(args.at(5));
        if (!groups) return std::nullopt;
        key.groups = *groups;
      } else {
        key.layout = args.at(5).get<std::string>();
        key.out_layout = args.at(6).get<std::string>();
      }
    }
    // Every other spelling (floats, other dtypes per tensor, a bias, extra arguments) is not
    // a task of ours, as when tasks were matched by their arguments' text.
    if (autotvm_args(key).dump() != args.dump()) return std::nullopt;
    return key;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

}  // namespace layoutopt::tuning
