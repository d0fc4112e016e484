#include "layoutopt/tuning/task_args.h"

namespace layoutopt::tuning {

namespace {

using nlohmann::json;

json tensor(const std::vector<int64_t>& shape, const std::string& dtype) { return json::array({"TENSOR", shape, dtype}); }

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
    key.data = args.at(0).at(1).get<std::vector<int64_t>>();
    key.weight = args.at(1).at(1).get<std::vector<int64_t>>();
    key.dtype = args.back().get<std::string>();
    if (*family != TaskFamily::dense) {
      key.strides = args.at(2).get<std::array<int64_t, 2>>();
      key.padding = args.at(3).get<std::array<int64_t, 4>>();
      key.dilation = args.at(4).get<std::array<int64_t, 2>>();
      if (*family == TaskFamily::group_conv2d) {
        key.groups = args.at(5).get<int64_t>();
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
