#pragma once
// A TaskKey in AutoTVM's form, for the record reader and writer only (measure_record.cpp):
//
//   conv2d_NCHWc.x86            [data, kernel, strides, padding(t,l,b,r), dilation, "NCHW", "NCHW", "float32"]
//   depthwise_conv2d_NCHWc.x86  same arguments, kernel [C, 1, KH, KW]
//   conv2d_NCHWc_winograd.x86   same arguments (ours: AutoTVM has no x86 Winograd template)
//   group_conv2d_nchw.x86       [data, kernel, strides, padding, dilation, groups, "float32"]
//   dense_nopack.x86            [data, weight, null, "float32"]
//
// where data / kernel are ["TENSOR", shape, "float32"].

#include <optional>
#include <string_view>
#include <nlohmann/json.hpp>

#include "layoutopt/tuning/task_key.h"

namespace layoutopt::tuning {

/// The task arguments AutoTVM's x86 task extraction writes for `key`.
[[nodiscard]] nlohmann::json autotvm_args(const TaskKey& key);

/// The key of task `name` with arguments `args`; nullopt for another template or an argument
/// form that autotvm_args would not write back identically (such a record matches no task).
[[nodiscard]] std::optional<TaskKey> task_key_of(std::string_view name, const nlohmann::json& args);

}  // namespace layoutopt::tuning
